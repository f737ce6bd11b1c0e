import { fork } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { pathKey } from '../../main/local/paths.js';
import { childModule } from '../helpers/children.js';
import { baseFile, remoteFile, useTempIndex, workspace } from './index-fixtures.js';

const { file, withIndex } = useTempIndex();
const CHILD = childModule('index-crash-child');

/** Runs the child until it reports it is mid-batch, then kills it with SIGKILL. */
async function killMidWrite(mode: 'base' | 'remote'): Promise<void> {
  const child = fork(CHILD.modulePath, [file(), mode], { execArgv: CHILD.execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  const reported = new Promise<void>((resolve, reject) => {
    child.on('message', (m) => (m === 'mid-write' ? resolve() : reject(new Error(`unexpected message ${String(m)}`))));
    void exited.then(() => reject(new Error(`child exited before writing: ${stderr}`)));
  });
  await reported;
  child.kill('SIGKILL');
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
}

describe('index after a crash', () => {
  it.each(['base', 'remote'] as const)('keeps the last committed state when killed mid-batch (%s)', async (mode) => {
    const files = Array.from({ length: 1000 }, (_, i) => baseFile(i));
    const remote = Array.from({ length: 1000 }, (_, i) => remoteFile(i));
    withIndex((index) => {
      index.workspaces.add(workspace());
      index.base.putFiles('ws-1', files);
      index.remote.replaceAll('ws-1', { folders: [], files: remote, sequence: '10' }, 5000);
    });

    await killMidWrite(mode);
    // The killed writer had already spilled uncommitted pages into the log.
    expect(statSync(`${file()}-wal`).size).toBeGreaterThan(0);

    withIndex((index) => {
      expect(index.base.load('ws-1').files).toEqual(new Map(files.map((f) => [pathKey(f.path), f])));
      expect([...index.remote.load('ws-1').files.values()].sort((a, b) => a.sequence - b.sequence)).toEqual(remote);
      expect(index.workspaces.get('ws-1')).toMatchObject({ sequence: '10', lastFullListingAt: 5000 });
      // And it takes writes again.
      index.base.putFile('ws-1', baseFile(5000));
      expect(index.base.getFile('ws-1', baseFile(5000).path)).toEqual(baseFile(5000));
    });
    const db = new Database(file(), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});
