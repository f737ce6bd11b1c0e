import { describe, expect, it } from 'vitest';
import { lockAddress, lockRoot, RootBusyError } from '../../main/root-lock.js';

describe('the lock of a sync root', () => {
  it('is held by one holder at a time and free again once released', async () => {
    const indexPath = `/tmp/asset-sync-lock-test-${process.pid}-${Date.now()}.db`;
    const first = await lockRoot('/data/Assets', indexPath);
    await expect(lockRoot('/data/Assets', indexPath)).rejects.toThrow(RootBusyError);
    await expect(lockRoot('/data/Assets', indexPath)).rejects.toThrow('Another Asset Sync is already syncing /data/Assets');
    const other = await lockRoot('/data/Other', `${indexPath}-other`);
    await first.release();
    const again = await lockRoot('/data/Assets', indexPath);
    await again.release();
    await other.release();
  });

  it('leaves nothing on disk where the OS offers a name space for it', () => {
    expect(lockAddress('/x/index.db', 'linux').startsWith('\0')).toBe(true);
    expect(lockAddress('/x/index.db', 'win32').startsWith('\\\\.\\pipe\\')).toBe(true);
    expect(lockAddress('/x/index.db', 'darwin')).toMatch(/asset-sync-[0-9a-f]{24}\.sock$/);
    expect(lockAddress('/x/index.db', 'linux')).not.toBe(lockAddress('/y/index.db', 'linux'));
  });
});
