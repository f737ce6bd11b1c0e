/**
 * Two-way churn for soak runs: on disk, what a user does (new files, edits, renames, deletes);
 * on the service, what a colleague does through the same typed client (uploads, new versions,
 * renames and moves, soft deletes). Files come in varied sizes, some of several MiB so that a
 * kill lands mid-transfer. Every edit goes into the ledger; races with the running sync (a file
 * that moved away, a version committed first) only make an operation count as skipped.
 */
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { conflictDetails, isServiceError } from '../../main/service-client/index.js';
import { bytesFor, remoteFiles, sha256, walkFiles, type RemoteActor } from './engine.js';
import type { Ledger } from './ledger.js';
import type { Rng } from './rng.js';

const MiB = 1024 * 1024;

export interface ChurnSizes {
  /** Share of new contents that are large (from 1 MiB to `largeMaxBytes`). */
  largeShare: number;
  largeMaxBytes: number;
  /** Small contents are 64 bytes to this (64 bytes at least, so that every content is unique). */
  smallMaxBytes: number;
}

type LocalOp = 'create' | 'edit' | 'rename' | 'delete' | 'renameFolder';
type RemoteOp = 'upload' | 'version' | 'move' | 'delete' | 'renameFolder';

export interface ChurnStats {
  local: Record<LocalOp, number>;
  remote: Record<RemoteOp, number>;
  /** The same file changed on both sides at once (a conflict in the making). */
  clashes: number;
  /** Operations that lost a race with the sync (or a fault) and did nothing. */
  skipped: number;
}

const LOCAL_WEIGHTS: Record<LocalOp, number> = { create: 3, edit: 3, rename: 2, delete: 2, renameFolder: 1 };
const REMOTE_WEIGHTS: Record<RemoteOp, number> = { upload: 3, version: 3, move: 2, delete: 2, renameFolder: 1 };
/** Where new files go: demo folders the service has, and folders only one side makes. */
const LOCAL_FOLDERS = ['', 'Local', 'Local/Deep', 'Docs', 'Photography', 'Campaigns/Spring'];
const REMOTE_FOLDERS = ['', 'Remote', 'Remote/Deep', 'Docs', 'Brand/Logos', 'Local'];

/** The file or folder changed under our feet: the running sync moved, replaced or removed it. */
const RACES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENOTEMPTY']);
const lostRace = (error: unknown): boolean => error instanceof Error && RACES.has((error as NodeJS.ErrnoException).code ?? '');

/** The files a user would touch: the engine's own files (marker, temp files, trash) left out. */
async function userFiles(dir: string): Promise<string[]> {
  return (await walkFiles(dir)).filter((rel) => !rel.split('/').some((part) => part.startsWith('.assetsync')));
}

/**
 * "a b.psd" → "a b m7.psd": a fresh name that keeps the extension (earlier suffixes replaced),
 * within the 255 bytes a name may have (a conflicted copy of a conflicted copy is long already).
 */
function renamed(name: string, n: number, tag: string): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = ` ${tag}${n}${ext}`;
  const base = stem.replace(/ [lr]\d+$/, '');
  const room = 255 - Buffer.byteLength(suffix);
  return `${Buffer.byteLength(base) > room ? Buffer.from(base).subarray(0, room).toString('utf8').replace(/\uFFFD+$/, '') : base}${suffix}`;
}

export class Churner {
  readonly stats: ChurnStats = {
    local: { create: 0, edit: 0, rename: 0, delete: 0, renameFolder: 0 },
    remote: { upload: 0, version: 0, move: 0, delete: 0, renameFolder: 0 },
    clashes: 0,
    skipped: 0,
  };
  private made = 0;

  constructor(
    private readonly ctx: { dir: string; colleague: RemoteActor; ledger: Ledger; sizes: ChurnSizes },
    private readonly rng: { local: Rng; remote: Rng; timing: Rng },
  ) {}

  /** `count` operations on either side at random, each after a pause of up to `spacingMs`. */
  async burst(run: number, count: number, spacingMs: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, this.rng.timing.int(0, spacingMs)));
      const side = this.rng.timing.next();
      if (side < 0.1) await this.clash(run);
      else if (side < 0.55) await this.local(run);
      else await this.remote(run);
    }
  }

  /** One thing a user does on disk. */
  async local(run: number): Promise<void> {
    const rng = this.rng.local;
    const op = rng.weighted(LOCAL_WEIGHTS);
    const files = await userFiles(this.ctx.dir);
    try {
      if (op === 'create' || files.length === 0) {
        const rel = [rng.pick(LOCAL_FOLDERS), `l${run}-${(this.made += 1)}.bin`].filter(Boolean).join('/');
        await this.write(rel, run, 'create');
        this.stats.local.create += 1;
        return;
      }
      const rel = rng.pick(files);
      const abs = join(this.ctx.dir, ...rel.split('/'));
      if (op === 'renameFolder') {
        // The folder of a file picked at random (none at the top: another operation instead).
        const folder = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
        if (folder === '') return void (await this.local(run));
        const slash = folder.lastIndexOf('/');
        const to = `${folder.slice(0, slash + 1)}${renamed(folder.slice(slash + 1), (this.made += 1), 'l')}`;
        await rename(join(this.ctx.dir, ...folder.split('/')), join(this.ctx.dir, ...to.split('/')));
      } else if (op === 'edit') {
        this.ctx.ledger.supersede(sha256(await readFile(abs)));
        await this.write(rel, run, 'edit');
      } else if (op === 'rename') {
        const to = [rng.pick(LOCAL_FOLDERS), renamed(rel.slice(rel.lastIndexOf('/') + 1), (this.made += 1), 'l')].filter(Boolean).join('/');
        await mkdir(dirname(join(this.ctx.dir, ...to.split('/'))), { recursive: true });
        await rename(abs, join(this.ctx.dir, ...to.split('/')));
      } else {
        this.ctx.ledger.supersede(sha256(await readFile(abs)));
        await unlink(abs);
      }
      this.stats.local[op] += 1;
    } catch (error) {
      // The sync moved, replaced or removed the file meanwhile: that race is the point.
      if (!lostRace(error)) throw error;
      this.stats.skipped += 1;
    }
  }

  /** One thing the colleague does on the service. */
  async remote(run: number): Promise<void> {
    const rng = this.rng.remote;
    const { colleague } = this.ctx;
    const op = rng.weighted(REMOTE_WEIGHTS);
    try {
      const listing = await colleague.hierarchy();
      const assets = listing.assets.filter((a) => a.isActive);
      if (op === 'upload' || assets.length === 0) {
        const folder = rng.pick(REMOTE_FOLDERS);
        const name = `r${run}-${(this.made += 1)}.bin`;
        const bytes = this.content();
        const path = folder === '' ? name : `${folder}/${name}`;
        const folderId = await colleague.folder(folder);
        await this.remoteEdit(path, bytes, run, 'create', () => colleague.createIn(folderId, name, bytes));
        this.stats.remote.upload += 1;
        return;
      }
      const asset = rng.pick(assets);
      if (op === 'version') {
        const bytes = this.content();
        await this.remoteEdit(asset.file_name, bytes, run, 'edit', () => colleague.newVersion(asset.id, bytes));
      } else if (op === 'renameFolder') {
        const folders = listing.folders.filter((f) => f.isActive);
        if (folders.length === 0) return void (await this.remote(run));
        const folder = rng.pick(folders);
        await colleague.client.updateFolder(colleague.workspaceId, folder.id, { name: renamed(folder.name, (this.made += 1), 'r') });
      } else if (op === 'move') {
        const folders = listing.folders.filter((f) => f.isActive);
        const folderId = rng.chance(0.5) ? asset.folder_id ?? null : rng.chance(0.2) || folders.length === 0 ? null : rng.pick(folders).id;
        await colleague.client.updateAsset(colleague.workspaceId, asset.id, { file_name: renamed(asset.file_name, (this.made += 1), 'r'), folder_id: folderId });
      } else {
        await colleague.client.deleteAssets(colleague.workspaceId, [asset.id]);
      }
      this.stats.remote[op] += 1;
    } catch (error) {
      // Someone committed first, the name is taken, the asset went away, or a fault outlasted the retries.
      if (!isServiceError(error)) throw error;
      this.stats.skipped += 1;
    }
  }

  /** The user and the colleague change the same file at the same time. */
  async clash(run: number): Promise<void> {
    const { colleague, dir, ledger } = this.ctx;
    const files = await userFiles(dir);
    if (files.length === 0) return;
    const rel = this.rng.local.pick(files);
    try {
      ledger.supersede(sha256(await readFile(join(dir, ...rel.split('/')))));
      await this.write(rel, run, 'edit');
      const asset = (await remoteFiles(colleague.client, colleague.workspaceId)).get(rel);
      // Not on the service (yet, or any more) under that path: a plain local edit, then.
      if (asset === undefined) return;
      const bytes = this.content();
      await this.remoteEdit(rel, bytes, run, 'edit', () => colleague.newVersion(asset.assetId, bytes));
      this.stats.clashes += 1;
    } catch (error) {
      if (!isServiceError(error) && !lostRace(error)) throw error;
      this.stats.skipped += 1;
    }
  }

  /** Makes a remote edit and records it: confirmed unless the outcome is unknown. */
  private async remoteEdit(path: string, bytes: Buffer, run: number, kind: 'create' | 'edit', make: () => Promise<unknown>): Promise<void> {
    const edit = { side: 'remote' as const, kind, path, checksum: sha256(bytes), size: bytes.length, run };
    try {
      await make();
      this.ctx.ledger.add({ ...edit, confirmed: true });
    } catch (error) {
      // A create whose answer was lost comes back as a name conflict with our own bytes.
      if (conflictDetails(error)?.checksum === edit.checksum) this.ctx.ledger.add({ ...edit, confirmed: true });
      // A refusal (conflict, gone, locked) made nothing; anything else may or may not have.
      else if (!isServiceError(error) || !['conflict', 'not_found', 'locked'].includes(error.kind)) this.ctx.ledger.add({ ...edit, confirmed: false });
      throw error;
    }
  }

  private async write(rel: string, run: number, kind: 'create' | 'edit'): Promise<void> {
    const abs = join(this.ctx.dir, ...rel.split('/'));
    const bytes = this.content();
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, bytes);
    this.ctx.ledger.add({ side: 'local', kind, path: rel, checksum: sha256(bytes), size: bytes.length, run, confirmed: true });
  }

  /** Unique bytes of a random size: mostly small, some of several MiB. */
  private content(): Buffer {
    const { sizes } = this.ctx;
    const rng = this.rng.timing;
    const size = rng.chance(sizes.largeShare) ? rng.int(MiB, sizes.largeMaxBytes) : rng.int(64, sizes.smallMaxBytes);
    return bytesFor(`soak ${rng.seed} content ${(this.made += 1)}`, size);
  }
}
