/**
 * The picture worker's thread: draws one picture at a time (render/index.ts) and answers with
 * the WebP bytes moved, not copied. On Linux the thread lowers its own priority (a thread's nice
 * value is its own there): the sync's threads win the cores whenever both want them.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { render } from './render/index.js';
import type { RenderJob } from './render/types.js';

const BACKGROUND_NICE = 10;

if (process.platform === 'linux') {
  try {
    setPriority(0, BACKGROUND_NICE);
  } catch {
    // A container may forbid it; the pictures are made all the same.
  }
}

// pdf.js leaves a rejection of its own unhandled behind some damaged PDFs, after the job has had
// its answer: it must not end the thread (and the jobs waiting behind it). Every job's own
// outcome is awaited below, so nothing else can reach this handler.
process.on('unhandledRejection', () => undefined);

const port = parentPort;
if (!port) throw new Error('picture-worker runs as a worker thread');
port.on('message', (message: { id: number; job: RenderJob }) => {
  void render(message.job).then((outcome) => {
    if (outcome.ok && outcome.picture) {
      const bytes = outcome.picture;
      port.postMessage({ id: message.id, outcome }, [bytes.buffer as ArrayBuffer]);
    } else {
      port.postMessage({ id: message.id, outcome });
    }
  });
});
port.postMessage({ ready: true });
