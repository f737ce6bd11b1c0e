/**
 * AppApi pieces that need no service: the sync state a file shows, what a failure tells the user,
 * and how a session the command line lent takes settings and is handed back.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AppApi, toBridgeError } from '../../main/app-api/index.js';
import { fileState, type FileSides } from '../../main/app-api/file-state.js';
import type { AppSession } from '../../main/app-api/session.js';
import { Config } from '../../main/config.js';
import { LockNotAllowedError } from '../../main/engine/asset-lock.js';
import { SyncEngine } from '../../main/engine/engine.js';
import { openIndex } from '../../main/index/sync-index.js';
import { createLogger } from '../../main/logging.js';
import { MediaService } from '../../main/media/index.js';
import type { SecretStore } from '../../main/secrets/secret-store.js';
import { ServiceClient, ServiceError } from '../../main/service-client/index.js';
import { headlessHooks } from '../../main/ui-server/headless-hooks.js';
import type { BaseFile, RemoteFile } from '../../main/model/views.js';

const base: BaseFile = { path: 'a.psd', assetId: 'a1', versionId: 'v1', checksum: 'c'.repeat(64), size: 10, mtimeNs: '1000', inode: 7 };
const remote: RemoteFile = { path: 'a.psd', assetId: 'a1', folderId: null, versionId: 'v1', versionNumber: 1, checksum: 'c'.repeat(64), size: 10, lockedByUserId: null, sequence: 1 };
const local = { size: 10, mtimeNs: '1000', ctimeNs: '1000', inode: 7 };
const sides = (patch: Partial<FileSides>): FileSides => ({ local, base, remote, ignored: false, problem: undefined, selfUserId: 'me', ...patch });

describe('fileState', () => {
  it.each<[string, Partial<FileSides>, string]>([
    ['unchanged on both sides', {}, 'synced'],
    ['edited here', { local: { ...local, mtimeNs: '2000' } }, 'pending-upload'],
    ['a new version on the service', { remote: { ...remote, versionId: 'v2' } }, 'pending-download'],
    ['edited on both sides', { local: { ...local, size: 11 }, remote: { ...remote, versionId: 'v2' } }, 'conflict'],
    ['deleted here', { local: undefined }, 'pending-upload'],
    ['deleted on the service', { remote: undefined }, 'pending-download'],
    ['new here', { base: undefined, remote: undefined }, 'pending-upload'],
    ['new on the service', { base: undefined, local: undefined }, 'pending-download'],
    ['ignored here', { base: undefined, remote: undefined, ignored: true }, 'local-only'],
    ['locked by someone else', { remote: { ...remote, lockedByUserId: 'them' } }, 'locked'],
    ['locked by me', { remote: { ...remote, lockedByUserId: 'me' } }, 'synced'],
    ['failing', { problem: 'error' }, 'error'],
  ])('%s → %s', (_name, patch, expected) => {
    expect(fileState(sides(patch))).toBe(expected);
  });
});

describe('toBridgeError', () => {
  it('words each failure for the user and hides anything unexpected', () => {
    const offline = new ServiceError({ kind: 'network', message: 'GET /workspaces?token=secret-token: ECONNREFUSED' });
    expect(toBridgeError(offline)).toEqual({ code: 'offline', message: 'The service cannot be reached. Check the connection.' });
    const conflict = new ServiceError({ kind: 'conflict', code: 'version_conflict', status: 409, message: 'version_conflict' });
    expect(toBridgeError(conflict).code).toBe('conflict');
    const crash = new TypeError("Cannot read properties of undefined (reading 'secret')");
    expect(toBridgeError(crash)).toEqual({ code: 'internal', message: 'Something went wrong. The log has the details.' });
    expect(toBridgeError(Object.assign(new Error('ENOSPC: no space'), { code: 'ENOSPC' })).code).toBe('disk_full');
    expect(toBridgeError(new LockNotAllowedError('hero.psd'))).toEqual({
      code: 'forbidden',
      message: 'Your role in this workspace does not allow locking hero.psd: ask a workspace admin for the editor role.',
    });
  });
});

describe('a session lent by the command line', () => {
  it('takes settings on its running engine, and is closed (its root lock released) before a session for another folder opens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'app-api-'));
    const index = openIndex(':memory:');
    const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', accountId: 'acct', credentials: { key: 'k', secret: 's' }, maxAttempts: 1 });
    const logger = createLogger();
    const engine = new SyncEngine({ root: dir, workspaces: [], index, client, logger, deviceName: 'test', accountId: 'acct' });
    let closedByApi = false;
    const session: AppSession = { engine, index, client, logger, close: () => void (closedByApi = true) };
    const opened: Array<{ root: string | undefined; lentClosed: boolean }> = [];
    const noSecrets: SecretStore = { name: 'none', get: async () => undefined, set: async () => undefined, delete: async () => undefined };
    const api = new AppApi({
      configFile: join(dir, 'config.json'),
      config: Config.parse({ baseUrl: 'http://127.0.0.1:9', accountId: 'acct', root: join(dir, 'first') }),
      secrets: noSecrets,
      hooks: headlessHooks({ downloadsDir: dir }),
      openSession: async (config) => {
        opened.push({ root: config.root, lentClosed: closedByApi });
        throw new ServiceError({ kind: 'network', message: 'no service here' });
      },
      session,
      reopenDelayMs: 60_000,
    });
    try {
      const settings = await api.handle('updateSettings', { pollIntervalSeconds: 120, bandwidthLimit: 1024, workspaces: [] });
      expect(settings).toMatchObject({ pollIntervalSeconds: 120, bandwidthLimit: 1024 });
      expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toMatchObject({ pollIntervalSeconds: 120, bandwidthLimit: 1024 });
      expect(opened).toEqual([]);
      expect(closedByApi).toBe(false);
      expect(engine.stopped).toBe(false);

      await api.handle('updateSettings', { root: join(dir, 'second') });
      expect(opened).toEqual([{ root: join(dir, 'second'), lentClosed: true }]);
      expect(engine.stopped).toBe(true);
      expect(api.status().state).toBe('offline');
      await expect(api.handle('listFiles', { workspaceId: 'w1' })).rejects.toMatchObject({ code: 'offline' });
    } finally {
      await api.close();
      await client.close();
      index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('transfer and picture settings', () => {
  it('apply to the running engine and picture maker, are saved, and open no other session', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'app-api-'));
    const index = openIndex(':memory:');
    const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', accountId: 'acct', credentials: { key: 'k', secret: 's' }, maxAttempts: 1 });
    const engine = new SyncEngine({ root: dir, workspaces: [], index, client, logger: createLogger(), deviceName: 'test', accountId: 'acct' });
    const session: AppSession = { engine, index, client, logger: createLogger(), close: () => undefined };
    const media = new MediaService({ dir: join(dir, 'media'), cacheBytes: 256 * 1024 * 1024 });
    const limits = vi.spyOn(engine, 'setTransferLimits');
    let opened = 0;
    const api = new AppApi({
      configFile: join(dir, 'config.json'),
      config: Config.parse({ baseUrl: 'http://127.0.0.1:9', accountId: 'acct', root: dir }),
      secrets: { name: 'none', get: async () => undefined, set: async () => undefined, delete: async () => undefined },
      hooks: headlessHooks({ downloadsDir: dir }),
      openSession: async () => {
        opened += 1;
        throw new ServiceError({ kind: 'network', message: 'no service here' });
      },
      session,
      media,
      reopenDelayMs: 60_000,
    });
    try {
      expect(await api.handle('getSettings', {})).toMatchObject({ maxDownloads: 4, maxUploads: 4, prefetchThumbnails: true, mediaCacheMiB: 256 });
      const following = engine.listenerCount('activity');
      const settings = await api.handle('updateSettings', { maxDownloads: 8, maxUploads: 2, prefetchThumbnails: false, mediaCacheMiB: 64 });
      expect(settings).toMatchObject({ maxDownloads: 8, maxUploads: 2, prefetchThumbnails: false, mediaCacheMiB: 64 });
      expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toMatchObject({ maxDownloads: 8, maxUploads: 2, prefetchThumbnails: false, mediaCacheMiB: 64 });
      expect(limits).toHaveBeenCalledWith({ maxDownloads: 8, maxUploads: 2 });
      expect(media.cache.capBytes).toBe(64 * 1024 * 1024);
      // No longer following the sync to draw pictures ahead of need.
      expect(engine.listenerCount('activity')).toBe(following - 1);
      await expect(api.handle('updateSettings', { maxDownloads: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
      expect(opened).toBe(0);
    } finally {
      await api.close();
      await media.close();
      await client.close();
      index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
