/**
 * `GET /media/<capability>` on the headless UI server: pictures and media files for `<img>`,
 * `<video>` and `<audio>`, which cannot send the page's token. The capability in the path is the
 * credential (minted by an API call, signed, naming one thing, expiring: main/media); requests
 * another site makes (Sec-Fetch-Site) are refused even with one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { answerMedia, MEDIA_HEADERS } from '../media/serve.js';
import type { MediaService } from '../media/media-service.js';

export async function serveMedia(req: IncomingMessage, res: ServerResponse, url: URL, media: MediaService | null): Promise<void> {
  const refuse = (status: number, text: string) => {
    res.writeHead(status, { ...MEDIA_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };
  if (!media) return refuse(404, 'Not found.');
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return refuse(403, 'Requests from other sites are not accepted.');
  // The picture may still have to be drawn: when the page stops waiting, so does the drawing.
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const answer = await answerMedia(media, { pathname: url.pathname, method: req.method ?? 'GET', range: req.headers.range, signal: gone.signal });
  if (res.destroyed) {
    if (answer.body && 'destroy' in answer.body) answer.body.destroy();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  const body = answer.body;
  if (body === null || Buffer.isBuffer(body)) return void res.end(body ?? undefined);
  // Not `pipe`: a page that goes away mid-file would leave the file open.
  pipeline(body, res, () => undefined);
}
