/**
 * Versions as a designer reads them, through the app API against the local service: who made
 * each one (and which are the user's own), the note of one's own version written from the app
 * and seen by everyone through the service, a restore with a note of its own, and the activity
 * feed's account of who made a version and why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetVersion } from '../../shared/api/index.js';
import type { VersionInfo } from '../../shared/ipc.js';
import type { AppApi } from '../../main/app-api/index.js';
import type { TestService } from '../helpers/service.js';
import { signedInApp, type SignedInApp } from '../helpers/signed-in-app.js';

let app: SignedInApp;
let svc: TestService;
let api: AppApi;
const LOGO = 'Brand/Logos/logo-mark.png';

beforeAll(async () => {
  app = await signedInApp('app-api-notes', ['Photography', 'Campaigns', 'Docs']);
  ({ svc, api } = app);
}, 120_000);

afterAll(() => app?.close());

const ws = () => svc.demo.workspaceId;
const versionsOf = (path: string) => api.handle('listVersions', { workspaceId: ws(), path });
/** The version as anyone reads it from the service. */
async function onService(version: VersionInfo): Promise<AssetVersion> {
  const assetId = (await api.handle('listFiles', { workspaceId: ws(), folder: 'Brand/Logos' })).find((e) => e.path === LOGO)?.assetId ?? '';
  const answer = await svc.colleague.api<AssetVersion>('GET', `/workspaces/assets/${assetId}/versions/${version.id}`);
  expect(answer.status).toBe(200);
  return answer.json;
}

describe('versions, their authors and notes', () => {
  it('names who made each version and tells the user’s own from a colleague’s', async () => {
    const versions = await versionsOf(LOGO);
    expect(versions.map((v) => [v.number, v.author, v.mine, v.description])).toEqual([
      [3, 'Dana Designer', true, 'Revision 3'],
      [2, 'Rafael Reviewer', false, 'Revision 2'],
      [1, 'Dana Designer', true, null],
    ]);
  });

  it('writes the note of the user’s own version, and everyone sees it on the service', async () => {
    const v1 = (await versionsOf(LOGO)).find((v) => v.number === 1) as VersionInfo;
    const updated = await api.handle('setVersionNote', { workspaceId: ws(), path: LOGO, versionId: v1.id, note: '  first sketch, brighter sky ' });
    expect(updated).toMatchObject({ id: v1.id, number: 1, description: 'first sketch, brighter sky', mine: true, checksum: v1.checksum });
    expect((await onService(v1)).description).toBe('first sketch, brighter sky');
    expect((await versionsOf(LOGO)).find((v) => v.number === 1)?.description).toBe('first sketch, brighter sky');

    // An empty note clears it.
    await api.handle('setVersionNote', { workspaceId: ws(), path: LOGO, versionId: v1.id, note: '' });
    expect((await onService(v1)).description ?? '').toBe('');
  });

  it('refuses to change a colleague’s note, and leaves it as it was', async () => {
    const v2 = (await versionsOf(LOGO)).find((v) => v.number === 2) as VersionInfo;
    await expect(api.handle('setVersionNote', { workspaceId: ws(), path: LOGO, versionId: v2.id, note: 'mine now' })).rejects.toMatchObject({
      code: 'not_yours',
      message: 'Version 2 was made by Rafael Reviewer: only they can change its note.',
    });
    expect((await onService(v2)).description).toBe('Revision 2');
  });

  it('makes an old version current with a note of the user’s', async () => {
    const v1 = (await versionsOf(LOGO)).find((v) => v.number === 1) as VersionInfo;
    const restored = await api.handle('restoreVersion', { workspaceId: ws(), path: LOGO, versionId: v1.id, note: 'back to the first sketch' });
    const newest = (await versionsOf(LOGO))[0];
    expect(newest).toMatchObject({ id: restored.versionId, number: 4, current: true, mine: true, description: 'back to the first sketch', checksum: v1.checksum });
    const activity = await api.handle('getActivity', { workspaceId: ws() });
    expect(activity[0]).toMatchObject({ kind: 'restored', path: LOGO, version: { versionId: restored.versionId, number: 4 } });
  });

  it('tells the activity feed who made each version and its note, and a note changed here at once', async () => {
    const activity = await api.handle('getActivity', { workspaceId: ws(), limit: 100 });
    const downloaded = activity.filter((a) => a.kind === 'downloaded' && a.path === LOGO);
    expect(downloaded).toHaveLength(1);
    const ref = downloaded[0]?.version;
    expect(ref).toMatchObject({ number: 3 });
    const mono = activity.find((a) => a.kind === 'downloaded' && a.path === 'Brand/Logos/logo-mono.svg')?.version;
    const [logo, colleagues] = await api.handle('describeVersions', { workspaceId: ws(), items: [ref!, mono!] });
    expect(logo).toEqual({ versionId: ref?.versionId, number: 3, author: 'Dana Designer', mine: true, note: 'Revision 3' });
    expect(colleagues).toEqual({ versionId: mono?.versionId, number: 2, author: 'Rafael Reviewer', mine: false, note: 'Revision 2' });

    const v3 = (await versionsOf(LOGO)).find((v) => v.number === 3) as VersionInfo;
    await api.handle('setVersionNote', { workspaceId: ws(), path: LOGO, versionId: v3.id, note: 'brighter sky' });
    expect((await api.handle('describeVersions', { workspaceId: ws(), items: [ref!] }))[0]?.note).toBe('brighter sky');
  });

  it('answers null for a version the service does not know, and the rest as usual', async () => {
    const activity = await api.handle('getActivity', { workspaceId: ws(), limit: 100 });
    const ref = activity.find((a) => a.kind === 'downloaded' && a.path === LOGO)?.version;
    const answers = await api.handle('describeVersions', { workspaceId: ws(), items: [{ assetId: ref!.assetId, versionId: 'no-such-version' }, ref!] });
    expect(answers[0]).toBeNull();
    expect(answers[1]).toMatchObject({ number: 3 });
  });
});
