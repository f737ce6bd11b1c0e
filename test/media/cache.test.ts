/**
 * The picture cache keeps to its size cap by dropping the least recently used entries (never one
 * being read), and survives a crash at any point: a process killed while writing leaves every
 * row naming a whole file, and the next open removes what the crash left behind.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MediaCache } from '../../main/media/cache.js';
import { childModule } from '../helpers/children.js';

const CHILD = childModule('cache-writer-child');
let dir: string;
let clock: number;
const open = (capBytes = 10_000) => new MediaCache(dir, { capBytes, now: () => clock });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-cache-'));
  clock = 1_000_000;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

function filesOnDisk(): string[] {
  const root = join(dir, 'files');
  return readdirSync(root).flatMap((folder) => readdirSync(join(root, folder)).map((name) => join(root, folder, name)));
}

describe('MediaCache', () => {
  it('keeps entries by key, with their metadata, and metadata-only entries', () => {
    const cache = open();
    const entry = cache.put('picture:a', bytes(100), { width: 10 });
    expect(readFileSync(entry.file as string)).toHaveLength(100);
    cache.put('probe:a', null, { type: 'png' });
    expect(cache.get('picture:a')).toMatchObject({ bytes: 100, meta: { width: 10 } });
    expect(cache.get('probe:a')).toMatchObject({ file: null, bytes: 0, meta: { type: 'png' } });
    expect(cache.totalBytes).toBe(100);
    cache.close();
  });

  it('evicts the least recently used entries past the cap, down to 90% of it', () => {
    const cache = open(10_000);
    for (let i = 0; i < 9; i += 1) {
      clock += 120_000;
      cache.put(`k${i}`, bytes(1_000), {});
    }
    clock += 120_000;
    expect(cache.get('k0')).toBeDefined(); // used again: now the most recent
    clock += 120_000;
    cache.put('k9', bytes(2_500), {});
    expect(cache.totalBytes).toBeLessThanOrEqual(9_000);
    expect(cache.get('k0')).toBeDefined();
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k2')).toBeUndefined();
    expect(cache.get('k9')).toBeDefined();
    const kept = filesOnDisk().reduce((sum, f) => sum + statSync(f).size, 0);
    expect(kept).toBe(cache.totalBytes);
    cache.close();
  });

  it('takes a smaller cap at once: the least recently used go, down to 90% of it', () => {
    const cache = open(10_000);
    for (let i = 0; i < 8; i += 1) {
      clock += 120_000;
      cache.put(`k${i}`, bytes(1_000), {});
    }
    cache.setCapBytes(4_000);
    expect(cache.capBytes).toBe(4_000);
    expect(cache.totalBytes).toBeLessThanOrEqual(3_600);
    expect(cache.get('k7')).toBeDefined();
    expect(cache.get('k0')).toBeUndefined();
    expect(filesOnDisk().reduce((sum, f) => sum + statSync(f).size, 0)).toBe(cache.totalBytes);
    cache.close();
  });

  it('never evicts a pinned entry (a file being read)', () => {
    const cache = open(3_000);
    cache.put('held', bytes(1_500), {});
    const release = cache.pin('held');
    clock += 120_000;
    cache.put('next', bytes(1_500), {});
    clock += 120_000;
    cache.put('third', bytes(1_500), {});
    expect(cache.get('held')).toBeDefined();
    release();
    clock += 120_000;
    cache.put('fourth', bytes(1_500), {});
    expect(cache.get('held')).toBeUndefined();
    cache.close();
  });

  it('adopts only files from its own temp folder', () => {
    const cache = open();
    const outside = join(dir, 'outside.bin');
    writeFileSync(outside, 'x');
    expect(() => cache.adopt('k', outside, {})).toThrow(/temp folder/);
    const temp = cache.tempPath();
    writeFileSync(temp, 'fetched');
    expect(cache.adopt('k', temp, {}).bytes).toBe(7);
    cache.close();
  });

  it('drops a row whose file was deleted behind its back, and sweeps files without a row at the next open', async () => {
    const cache = open();
    const a = cache.put('a', bytes(10), {});
    cache.put('b', bytes(20), {});
    cache.close();
    // What a crash leaves: a file renamed in place whose row was never written, a temp file.
    mkdirSync(join(dir, 'files', 'ff'), { recursive: true });
    writeFileSync(join(dir, 'files', 'ff', 'orphan'), 'left by a crash');
    mkdirSync(join(dir, 'tmp', 'dead-process'), { recursive: true });
    writeFileSync(join(dir, 'tmp', 'dead-process', 'half'), 'half written');
    clock = Date.now() + 2 * 60 * 60_000;
    const { rmSync } = await import('node:fs');
    rmSync(a.file as string);
    const again = open();
    expect(await again.swept).toBe(1);
    expect(existsSync(join(dir, 'files', 'ff', 'orphan'))).toBe(false);
    expect(existsSync(join(dir, 'tmp', 'dead-process'))).toBe(false);
    expect(again.get('a')).toBeUndefined();
    expect(again.totalBytes).toBe(20);
    again.close();
  });

  it('is consistent after a process killed while writing: every row names a whole file, no file is without a row after the sweep', async () => {
    // Three kills at whatever the writer is doing then: a torn order shows in one of them.
    for (let round = 0; round < 3; round += 1) {
      const child = fork(CHILD.modulePath, [dir, String(round * 100_000)], { execArgv: CHILD.execArgv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = once(child, 'exit');
      await new Promise<void>((resolve, reject) => {
        let seen = 0;
        child.stdout?.on('data', (chunk: Buffer) => {
          seen += chunk.toString().split('\n').length - 1;
          if (seen >= 300) resolve();
        });
        void exited.then(() => reject(new Error(`the writer stopped by itself: ${stderr}`)));
      });
      child.kill('SIGKILL');
      await exited;
      const reopened = open(64 * 1024 * 1024);
      await reopened.swept;
      const db = new Database(join(dir, 'cache.db'), { readonly: true });
      const rows = db.prepare('SELECT key, file, bytes FROM entries').all() as Array<{ key: string; file: string; bytes: number }>;
      db.close();
      expect(rows.length).toBeGreaterThan(100);
      for (const row of rows) {
        const content = readFileSync(join(dir, 'files', row.file));
        expect(content.length).toBe(row.bytes);
        expect(content.every((b) => b === content[0])).toBe(true);
      }
      expect(filesOnDisk().sort()).toEqual(rows.map((r) => join(dir, 'files', r.file)).sort());
      expect(reopened.totalBytes).toBe(rows.reduce((sum, r) => sum + r.bytes, 0));
      reopened.close();
    }
  });
});
