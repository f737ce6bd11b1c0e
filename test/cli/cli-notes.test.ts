/**
 * Notes on versions from the command line (the service's version `description`), through the
 * real CLI against the local service: a new version saved with a note, a restore with a note, and
 * the note of an existing version of one's own written or cleared; a colleague's is refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetVersion } from '../../shared/api/index.js';
import { signIn, type Session } from '../helpers/service.js';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { runCli, sha256 } from './cli-helpers.js';

let service: RunningService;
let demo: DemoInfo;
let dana: Session;
let home: string;
let root: string;
let env: Record<string, string>;

/** The demo's fourth asset: four versions, Dana made 1 and 3, Rafael 2 and 4. */
const PALETTE = 'Brand/Colors/palette.ase';
const file = (): string => join(root, 'Spring Campaign', PALETTE);

async function versions(): Promise<AssetVersion[]> {
  const list = (await dana.api<AssetVersion[]>('GET', `/workspaces/assets/${demo.assetIds[3] ?? ''}/versions`)).json;
  return [...list].sort((a, b) => a.version_number - b.version_number);
}
const numbered = async (n: number): Promise<AssetVersion | undefined> => (await versions()).find((v) => v.version_number === n);

beforeAll(async () => {
  service = await startService();
  demo = await service.seedDemo();
  dana = await signIn(service.url, { accountId: demo.accountId, workspaceId: demo.workspaceId, ...demo.user });
  home = mkdtempSync(join(tmpdir(), 'asset-sync-notes-home-'));
  root = mkdtempSync(join(tmpdir(), 'asset-sync-notes-root-'));
  env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  const synced = await runCli(['sync', '--once', '--base-url', service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root], { env });
  if (synced.code !== 0) throw new Error(`the first sync failed: ${synced.stderr}`);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

describe('notes on versions from the command line', () => {
  it('versions --version N --note writes the note of one’s own version, and an empty note clears it', async () => {
    const written = await runCli(['versions', file(), '--version', '3', '--note', 'warmer greens for spring'], { env });
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    expect(written.stdout).toContain('Version 3 of Brand/Colors/palette.ase now has the note “warmer greens for spring”.');
    expect((await numbered(3))?.description).toBe('warmer greens for spring');

    const listed = await runCli(['versions', file()], { env });
    expect(listed.stdout).toContain('warmer greens for spring');

    const cleared = await runCli(['versions', file(), '--version', '3', '--note', ''], { env });
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('Version 3 of Brand/Colors/palette.ase has no note now.');
    expect((await numbered(3))?.description ?? '').toBe('');
  });

  it('refuses to write a colleague’s note, naming who made the version, and changes nothing', async () => {
    const refused = await runCli(['versions', file(), '--version', '4', '--note', 'mine now'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Version 4 was made by Rafael Reviewer: only they can change its note.');
    expect((await numbered(4))?.description).toBe('Revision 4');
  });

  it('versions --version without --note is a mistake, said as such', async () => {
    const wrong = await runCli(['versions', file(), '--version', '3'], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--version names the version whose note --note writes');
  });

  it('restore --note gives the new version that note instead of "Restored from version N"', async () => {
    const v1 = await numbered(1);
    const restored = await runCli(['restore', file(), '--version', '1', '--note', 'back to the first palette'], { env });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const v5 = await numbered(5);
    expect(v5).toMatchObject({ description: 'back to the first palette', checksum: v1?.checksum, created_by_user_id: demo.user.userId });
    expect(sha256(readFileSync(file()))).toBe(v1?.checksum);
  });

  it('save-version --note uploads the edits now as a new version with that note', async () => {
    writeFileSync(file(), 'palette, brighter sky\n');
    const saved = await runCli(['save-version', file(), '--note', 'brighter sky'], { env });
    expect(saved.stderr).toBe('');
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain('Saved Brand/Colors/palette.ase as version 6 with the note “brighter sky”.');
    const v6 = await numbered(6);
    expect(v6).toMatchObject({ description: 'brighter sky', checksum: sha256(Buffer.from('palette, brighter sky\n')), created_by_user_id: demo.user.userId });
    expect(await versions()).toHaveLength(6);
  });

  it('save-version --note with nothing new to save says how to change the note of the version there is', async () => {
    const again = await runCli(['save-version', file(), '--note', 'again'], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Brand/Colors/palette.ase has no changes since version 6: there is nothing to save.');
    expect(again.stderr).toContain(`asset-sync versions ${file()} --version 6 --note`);
    expect(await versions()).toHaveLength(6);
  });

  it('save-version takes either --note (a new version) or --version and --to (a copy), not both', async () => {
    const both = await runCli(['save-version', file(), '--note', 'x', '--version', '2', '--to', join(home, 'copy.ase')], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--note saves your changes as a new version; --version and --to save a copy of an old one');
    const neither = await runCli(['save-version', file()], { env });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--note');
    expect(await versions()).toHaveLength(6);
  });
});
