/**
 * The UiEvents as server-sent events: one `event: <name>` per emission, its arguments as a JSON
 * array in `data`. The stream opens with the current status, so a page that connects (or
 * reconnects) is up to date at once instead of at the engine's next change.
 */
import type { ServerResponse } from 'node:http';
import { EVENT_NAMES, type EventName } from '../../shared/ipc.js';
import type { AppApi } from '../app-api/index.js';

const HEARTBEAT_MS = 20_000;

export function openEventStream(res: ServerResponse, api: AppApi, headers: Readonly<Record<string, string>>): () => void {
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  const send = (name: EventName, args: readonly unknown[]): void => {
    res.write(`event: ${name}\ndata: ${JSON.stringify(args)}\n\n`);
  };
  res.write('retry: 2000\n\n');
  send('status', [api.status()]);
  const listeners = EVENT_NAMES.map((name) => {
    const listener = (...args: unknown[]) => send(name, args);
    api.on(name, listener as never);
    return () => api.off(name, listener as never);
  });
  // A page following the events is someone looking: the engine polls faster meanwhile.
  const closeView = api.openView();
  // Comments keep proxies and idle timers from closing a quiet stream.
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    listeners.forEach((off) => off());
    closeView();
    res.end();
  };
  res.on('close', close);
  return close;
}
