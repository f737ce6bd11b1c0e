/**
 * What a converged sync must look like after a soak, checked the way a user would and then some.
 * The checks collect failures instead of throwing, so a soak reports all of them at once.
 *
 * 1. The workspace folder equals the service's current versions byte for byte: same set of
 *    paths, same SHA-256 for each.
 * 2. Nothing is lost: every edit the ledger requires (see ledger.ts: confirmed, and not
 *    overwritten or deleted by the user before the sync could see it) exists as a version of
 *    some asset, soft-deleted assets and deleted versions included, or as a conflicted copy.
 * 3. Nothing is made twice. Per asset, no two versions share an upload key. And per (asset,
 *    local edit), at most one version created by the syncing user carries the edit's bytes:
 *    retrying a commit after a kill or a lost answer must reuse the committed version, never
 *    add another. The same bytes may legitimately reach two assets (an upload that landed just
 *    before a colleague's version, then kept as a conflicted copy: a new asset), so the count is
 *    per asset. Colleague edits are made by the soak itself and are not counted.
 * 4. No `.assetsync-*.part` temp file is left in the root.
 * 5. Nothing was written outside the sync root (nor the index files beside it).
 */
import { relative, sep } from 'node:path';
import type { AssetVersion } from '../../main/service-client/index.js';
import { localChecksums, remoteChecksums, tempFiles, trashedChecksums, walkFiles, type World } from './engine.js';
import type { Edit, Ledger } from './ledger.js';

export interface Verified {
  /** Files equal on both sides. */
  files: number;
  /** Assets looked at, soft-deleted ones included, and their versions. */
  assets: number;
  versions: number;
  /** Edits that had to survive, and how many did. */
  required: number;
  found: number;
  /** Conflicted copies among the files (both sides changed a file: the local edit kept aside). */
  conflictedCopies: number;
  failures: string[];
}

export interface VerifyTarget {
  world: World;
  /** The sync root and the workspace folder inside it. */
  root: string;
  dir: string;
  ledger: Ledger;
}

interface VersionOf extends AssetVersion {
  assetId: string;
}

const CONFLICTED_COPY = /\(conflicted copy /;

export async function verifyConverged(target: VerifyTarget): Promise<Verified> {
  const { world, root, dir, ledger } = target;
  const failures: string[] = [];

  // 1. Same paths, same bytes.
  const local = new Map(await localChecksums(dir));
  const remote = new Map(await remoteChecksums(world.user.client, world.workspaceId));
  let files = 0;
  for (const [path, checksum] of remote) {
    const here = local.get(path);
    if (here === undefined) failures.push(`"${path}" is on the service but not on disk`);
    else if (here !== checksum) failures.push(`"${path}" differs: ${short(here)} on disk, ${short(checksum)} on the service`);
    else files += 1;
  }
  for (const path of local.keys()) if (!remote.has(path)) failures.push(`"${path}" is on disk but not on the service`);
  const folderPrefix = `${relative(root, dir).split(sep).join('/')}/`;
  for (const rel of await walkFiles(root)) if (!rel.startsWith(folderPrefix)) failures.push(`"${rel}" is in the root outside the workspace folder`);

  // 2 and 3. Every version of every asset, soft-deleted ones included.
  const versions = await allVersions(world);
  const byChecksum = new Map<string, VersionOf[]>();
  for (const v of versions) byChecksum.set(v.checksum, [...(byChecksum.get(v.checksum) ?? []), v]);
  const copyFiles = [...local].filter(([path]) => CONFLICTED_COPY.test(path));
  const copies = new Set(copyFiles.map(([, checksum]) => checksum));
  const required = ledger.required();
  const missing = required.filter((e) => !byChecksum.has(e.checksum) && !copies.has(e.checksum));
  const trashed = missing.length > 0 ? new Set(await trashedChecksums()) : new Set<string>();
  for (const e of missing) failures.push(`lost: ${describe(e)}${trashed.has(e.checksum) ? ' (only in the trash)' : ''}`);

  const keys = new Map<string, number>();
  for (const v of versions) keys.set(`${v.assetId} ${v.key}`, (keys.get(`${v.assetId} ${v.key}`) ?? 0) + 1);
  for (const [assetAndKey, n] of keys) if (n > 1) failures.push(`asset ${assetAndKey.split(' ')[0]} has ${n} versions of upload key ${assetAndKey.split(' ')[1]}`);
  const userId = world.demo.user.userId;
  for (const e of ledger.edits.filter((x) => x.side === 'local')) {
    const perAsset = new Map<string, number>();
    for (const v of byChecksum.get(e.checksum) ?? []) if (v.created_by_user_id === userId) perAsset.set(v.assetId, (perAsset.get(v.assetId) ?? 0) + 1);
    for (const [assetId, n] of perAsset) if (n > 1) failures.push(`made twice: ${describe(e)} is ${n} versions of asset ${assetId}`);
  }

  // 4 and 5.
  for (const temp of await tempFiles(root)) failures.push(`temp file left: ${temp}`);
  for (const stray of await world.strayFiles()) failures.push(`written outside the root: ${stray}`);

  return {
    files,
    assets: new Set(versions.map((v) => v.assetId)).size,
    versions: versions.length,
    required: required.length,
    found: required.length - missing.length,
    conflictedCopies: copyFiles.length,
    failures,
  };
}

async function allVersions(world: World): Promise<VersionOf[]> {
  const listing = await world.user.hierarchy(true);
  const out: VersionOf[] = [];
  for (const asset of listing.assets) {
    for (const v of await world.user.versions(asset.id)) out.push({ ...v, assetId: asset.id });
  }
  return out;
}

const short = (checksum: string): string => `${checksum.slice(0, 12)}…`;

function describe(e: Edit): string {
  return `${e.side} ${e.kind} of "${e.path}" in run ${e.run} (${short(e.checksum)}, ${e.size} bytes)`;
}
