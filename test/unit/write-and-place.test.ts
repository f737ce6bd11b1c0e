import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stampOf } from '../../main/local/stamp.js';
import { writeAndPlace, type PlaceRequest } from '../../main/local/write-and-place.js';
import { symlinkDisk } from '../helpers/disk.js';

/**
 * A small download's last steps as the file-system worker runs them (called here in-process):
 * the bytes land durably at a free name, never over a file saved meanwhile, never through a
 * folder swapped for a symlink out of the root, and no temp file is left behind.
 */
let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'write-place-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'shots'), { recursive: true });
  mkdirSync(outside);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const request = (name: string, text: string, extra: Partial<PlaceRequest> = {}): PlaceRequest => ({
  root,
  temp: path.join(root, 'shots', `.assetsync-${name}.tmp`),
  target: path.join(root, 'shots', name),
  bytes: new Uint8Array(Buffer.from(text)),
  readOnly: false,
  ...extra,
});

const namesIn = (dir: string): string[] => readdirSync(dir).sort();

describe('writeAndPlace', () => {
  it('puts the bytes at a free name, with the stamp the file has there, and leaves no temp file', async () => {
    const answer = await writeAndPlace(request('frame.png', 'version 3'));

    expect(answer).toMatchObject({ placed: { kind: 'placed' } });
    const target = path.join(root, 'shots', 'frame.png');
    expect(readFileSync(target, 'utf8')).toBe('version 3');
    expect('stamp' in answer && answer.stamp).toEqual(stampOf(lstatSync(target, { bigint: true })));
    expect(namesIn(path.join(root, 'shots'))).toEqual(['frame.png']);
  });

  it('never replaces a file saved at the name meanwhile', async () => {
    writeFileSync(path.join(root, 'shots', 'frame.png'), 'the user\'s new file');

    expect(await writeAndPlace(request('frame.png', 'version 3'))).toEqual({ placed: { kind: 'changed' }, stamp: expect.anything() });
    expect(readFileSync(path.join(root, 'shots', 'frame.png'), 'utf8')).toBe('the user\'s new file');
    expect(namesIn(path.join(root, 'shots'))).toEqual(['frame.png']);
  });

  it('replaces only the file it was told of, unchanged', async () => {
    const target = path.join(root, 'shots', 'frame.png');
    writeFileSync(target, 'version 2');
    const seen = stampOf(lstatSync(target, { bigint: true }));
    const keep = path.join(root, 'shots', '.assetsync-keep.tmp');
    writeFileSync(target, 'version 2, edited by the user');

    expect(await writeAndPlace(request('frame.png', 'version 3', { over: { seen, keep } }))).toMatchObject({ placed: { kind: 'changed' } });
    expect(readFileSync(target, 'utf8')).toBe('version 2, edited by the user');

    const now = stampOf(lstatSync(target, { bigint: true }));
    expect(await writeAndPlace(request('frame.png', 'version 3', { over: { seen: now, keep } }))).toMatchObject({ placed: { kind: 'placed' } });
    expect(readFileSync(target, 'utf8')).toBe('version 3');
    expect(namesIn(path.join(root, 'shots'))).toEqual(['frame.png']);
  });

  it('gives a file locked by someone else no write permission', async () => {
    await writeAndPlace(request('frame.png', 'version 3', { readOnly: true }));

    expect(statSync(path.join(root, 'shots', 'frame.png')).mode & 0o222).toBe(0);
  });

  it.runIf(symlinkDisk)('writes nothing through a folder swapped for a symlink out of the root', async () => {
    // The folder was checked before (the worker keeps what it learned of each folder).
    expect(await writeAndPlace(request('first.png', 'version 1'))).toMatchObject({ placed: { kind: 'placed' } });
    renameSync(path.join(root, 'shots'), path.join(root, 'kept'));
    symlinkSync(outside, path.join(root, 'shots'), 'dir');

    const answer = await writeAndPlace(request('frame.png', 'version 3'));

    expect(answer).toMatchObject({ error: { name: 'PathEscapeError', code: 'path_escape' } });
    expect(namesIn(outside)).toEqual([]);
    expect(namesIn(path.join(root, 'kept'))).toEqual(['first.png']);
  });

  it.runIf(symlinkDisk)('writes nothing through a symlink put at the name', async () => {
    const secret = path.join(outside, 'secret.txt');
    writeFileSync(secret, 'not ours');
    symlinkSync(secret, path.join(root, 'shots', 'frame.png'));

    const answer = await writeAndPlace(request('frame.png', 'version 3'));

    expect(answer).toMatchObject({ error: { code: 'path_escape' } });
    expect(readFileSync(secret, 'utf8')).toBe('not ours');
    expect(namesIn(path.join(root, 'shots'))).toEqual(['frame.png']);
  });
});
