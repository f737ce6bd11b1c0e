/** What a user would check after each run: every file there, with the right bytes. */
import type { ServiceClient } from '../../main/service-client/index.js';
import { assetsByPath } from './api.js';
import { verifyCopy, type DataSet } from './dataset.js';

/** Throws unless `dir` holds the whole set, byte for byte. */
export async function assertLocalCopy(dir: string, set: DataSet, who: string): Promise<void> {
  const check = await verifyCopy(dir, set);
  if (!check.ok) throw new Error(`${who}: ${check.missing} files missing and ${check.wrong} wrong in ${dir}`);
}

/** Throws unless the workspace holds every file of the set with its checksum. */
export async function assertRemoteCopy(client: ServiceClient, workspaceId: string, set: DataSet, who: string): Promise<void> {
  const remote = assetsByPath(await client.getHierarchy(workspaceId));
  const wrong = set.files.filter((f) => remote.get(f.rel)?.checksum !== f.sha256).length;
  if (wrong > 0) throw new Error(`${who}: ${wrong} of ${set.files.length} files missing or wrong on the service`);
}
