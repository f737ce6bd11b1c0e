import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarkerError, checkMarker, newMarker, readMarker, writeMarker } from '../../main/local/marker.js';
import { MARKER_FILE_NAME } from '../../main/local/own-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'marker-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sync root marker', () => {
  it('round-trips and leaves no temp file behind', async () => {
    const marker = newMarker('ws-1');
    await writeMarker(dir, marker);
    await expect(readMarker(dir)).resolves.toEqual(marker);
    expect(await readdir(dir)).toEqual([MARKER_FILE_NAME]);
  });

  it('gives every folder its own random id', () => {
    expect(newMarker('ws-1').folderId).not.toBe(newMarker('ws-1').folderId);
  });

  it('replaces an existing marker', async () => {
    await writeMarker(dir, newMarker('ws-1'));
    const second = newMarker('ws-2');
    await writeMarker(dir, second);
    await expect(readMarker(dir)).resolves.toEqual(second);
  });

  it('reads as null when the marker or the whole folder is gone', async () => {
    await expect(readMarker(dir)).resolves.toBeNull();
    await expect(readMarker(path.join(dir, 'unmounted'))).resolves.toBeNull();
  });

  it('rejects a marker that is not ours', async () => {
    await writeFile(path.join(dir, MARKER_FILE_NAME), 'not json');
    await expect(readMarker(dir)).rejects.toThrow(MarkerError);
    await writeFile(path.join(dir, MARKER_FILE_NAME), '{"version":1,"workspaceId":"ws-1"}');
    await expect(readMarker(dir)).rejects.toThrow(MarkerError);
  });

  it('tells the engine whether remote deletes are safe', async () => {
    const marker = newMarker('ws-1');
    await expect(checkMarker(dir, marker)).resolves.toBe('missing');
    await writeMarker(dir, marker);
    await expect(checkMarker(dir, marker)).resolves.toBe('ok');
    await expect(checkMarker(dir, { workspaceId: 'ws-1', folderId: 'another-folder' })).resolves.toBe('mismatch');
    await expect(checkMarker(dir, { ...marker, workspaceId: 'ws-2' })).resolves.toBe('mismatch');
    await writeFile(path.join(dir, MARKER_FILE_NAME), '[]');
    await expect(checkMarker(dir, marker)).resolves.toBe('invalid');
  });
});
