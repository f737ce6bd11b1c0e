/**
 * The worker threads run from the build as installed: each worker main/ starts
 * (`startModuleWorker(import.meta.url, name[, options])`) is a file `<name>.js` at the top of dist/node
 * (test/build-first.ts builds it), and the file-system worker started from there answers.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { HashAnswer, ListAnswer, WorkerMessage, WorkerReply } from '../../main/local/fs-worker-protocol.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const built = join(repo, 'dist', 'node');

/** The names of the workers main/ starts. */
function startedWorkers(): string[] {
  const names = new Set<string>();
  const files = readdirSync(join(repo, 'main'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    for (const m of readFileSync(join(repo, 'main', file), 'utf8').matchAll(/startModuleWorker\(import\.meta\.url, '([^']+)'[,)]/g)) names.add(m[1] as string);
  }
  return [...names].sort();
}

function ask(worker: Worker, message: WorkerMessage): Promise<WorkerReply['answer']> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: WorkerReply): void => {
      if (reply.id !== message.id) return;
      worker.off('message', onMessage);
      resolve(reply.answer);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.postMessage(message);
  });
}

describe('the built workers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'built-workers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every worker main/ starts is a file of dist/node', () => {
    const names = startedWorkers();
    expect(names).toEqual(expect.arrayContaining(['fs-worker', 'picture-worker']));
    for (const name of names) expect(existsSync(join(built, `${name}.js`)), `${name}.js in dist/node`).toBe(true);
  });

  it('the file-system worker, started from dist/node, lists a folder and hashes a file', async () => {
    writeFileSync(join(dir, 'a.txt'), 'hello');
    const worker = new Worker(join(built, 'fs-worker.js'));
    try {
      const [listed] = (await ask(worker, { id: 1, kind: 'list', prefixes: [dir + sep] })) as ListAnswer[];
      expect(listed && 'listing' in listed ? listed.listing.names : listed).toBe('a.txt');
      const cancel = new Int32Array(new SharedArrayBuffer(4));
      const [hashed] = (await ask(worker, { id: 2, kind: 'hash', paths: [join(dir, 'a.txt')], cancel, algorithm: 'sha256' })) as HashAnswer[];
      expect(hashed).toEqual({ checksum: createHash('sha256').update('hello').digest('hex'), size: 5 });
    } finally {
      await worker.terminate();
    }
  });
});
