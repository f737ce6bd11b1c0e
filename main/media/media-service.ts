/**
 * Pictures of the work for the app: thumbnails and previews of any asset version, made on this
 * computer from the synced file or a version fetched on demand, cached on disk by content
 * checksum, and handed to the renderer as capability URLs (capability.ts) that `open()` serves.
 *
 * Pictures never hold up the sync: they are drawn by one low-priority worker (picture-pool.ts),
 * those someone is looking at first; files the sync has just brought down or sent up are drawn
 * ahead of need, one at a time, when nothing visible waits. While the sync is busy they wait,
 * for up to 30 s; during a longer sync they take at most a tenth of the time (after a picture
 * that took t, a pause of 9t). A picture nobody waits for any more is dropped before it starts.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import type { ActivityItem, SyncState } from '../../shared/engine.js';
import type { SyncEngine } from '../engine/engine.js';
import { THUMBNAIL_EDGE, type MediaPreview, type MediaType, type NoPictureReason, type ThumbnailRef, type ThumbnailSize } from '../../shared/media.js';
import { AppError } from '../app-api/bridge-errors.js';
import { downloadVersionTo } from '../app-api/download.js';
import type { Logger } from '../logging.js';
import { MediaCache } from './cache.js';
import { CapabilitySigner, type CapabilityTarget, type FileTarget, type PictureTarget } from './capability.js';
import { NotDrawn, PicturePool, type PoolOptions, type PoolTask, type Priority } from './picture-pool.js';
import { DRAWN_FORMATS } from './render/index.js';
import type { RenderOutcome, SourceMeta } from './render/types.js';
import { guessFromName, sniffBytes, sniffFile, SNIFF_BYTES } from './sniff.js';
import { localSource, resolveVersion, unchanged, type AssetRequest, type LocalSource, type MediaSession, type VersionRef } from './sources.js';

export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

/** Formats a browser shows as they are: their preview is the file itself. */
const NATIVE_IMAGES = new Set(['png', 'jpg', 'gif', 'webp', 'avif', 'bmp', 'ico']);
/** Bump when pictures are drawn differently: older pictures are then made again. */
const PICTURE_GENERATION = 1;

export interface MediaServiceOptions {
  /** The cache folder, under the state folder. */
  dir: string;
  cacheBytes?: number;
  pool?: PoolOptions;
  /** Draw grid pictures of files the sync brings down or sends up (default true). */
  prefetch?: boolean;
  capabilityTtlMs?: number;
  logger?: Logger | undefined;
  now?: () => number;
}

/** What a session hands the media service: an engine to follow, when there is one. */
export interface MediaSessionWithEngine extends MediaSession {
  engine?: Pick<SyncEngine, 'on' | 'off' | 'status'>;
}

/**
 * Pictures made ahead of need wait while the sync is busy, up to DEFER_WHILE_SYNCING_MS; a longer
 * sync then shares its time with them, at most BACKGROUND_SHARE_WHILE_SYNCING of it.
 */
const DEFER_WHILE_SYNCING_MS = 30_000;
const BACKGROUND_SHARE_WHILE_SYNCING = 0.1;
const BUSY_STATES: ReadonlySet<SyncState> = new Set(['starting', 'listing', 'scanning', 'syncing']);

interface PictureMeta {
  ok: boolean;
  reason?: NoPictureReason;
  width?: number;
  height?: number;
  source?: SourceMeta;
}

interface ProbeMeta {
  type: MediaType;
  source?: SourceMeta;
  reason?: NoPictureReason;
  /** The bytes were read for their metadata (not only sniffed for their type). */
  probed?: boolean;
}

/** What a transport sends for a media URL. `handle` is closed by whoever reads it. */
export type OpenedMedia =
  | { ok: true; handle: FileHandle; size: number; contentType: string; name: string; immutable: boolean }
  | { ok: false; status: 403 | 404 | 410 | 503; message: string };

interface Inflight {
  promise: Promise<PictureMeta>;
  controller: AbortController;
  waiters: number;
  priority: Priority;
  task: PoolTask | null;
}

interface Source {
  file: string;
  local: LocalSource | null;
  release(): void;
}

export class MediaService {
  readonly cache: MediaCache;
  private readonly pool: PicturePool;
  private readonly signer: CapabilitySigner;
  private readonly inflight = new Map<string, Inflight>();
  private readonly fetches = new Map<string, Promise<void>>();
  private readonly prefetchQueue = new Map<string, { workspaceId: string; path: string }>();
  private prefetching: Promise<void> | null = null;
  private session: MediaSessionWithEngine | null = null;
  private readonly closing = new AbortController();
  /** When prefetching began waiting for a busy sync (null: the sync is not busy). */
  private deferredSince: number | null = null;
  private lastBackgroundMs = 0;
  private prefetchOn: boolean;
  private readonly onActivity = (item: ActivityItem) => {
    if ((item.kind === 'downloaded' || item.kind === 'uploaded') && item.path) this.prefetch(item.workspaceId, item.path);
  };

  constructor(private readonly options: MediaServiceOptions) {
    this.prefetchOn = options.prefetch !== false;
    this.cache = new MediaCache(options.dir, { capBytes: options.cacheBytes ?? DEFAULT_CACHE_BYTES, ...(options.now ? { now: options.now } : {}) });
    this.pool = new PicturePool(options.pool);
    this.signer = new CapabilitySigner(options.capabilityTtlMs, options.now);
  }

  /** The session assets are resolved through (null: signed out or between sessions). */
  use(session: MediaSessionWithEngine | null): void {
    this.session?.engine?.off('activity', this.onActivity);
    this.session = session;
    this.prefetchQueue.clear();
    if (session && this.prefetchOn) session.engine?.on('activity', this.onActivity);
  }

  /** Whether pictures are drawn as files sync (the user's setting); off drops those still to make. */
  setPrefetch(on: boolean): void {
    this.prefetchOn = on;
    this.use(this.session);
  }

  /** The picture cache's size cap (the user's setting). */
  setCacheBytes(bytes: number): void {
    this.cache.setCapBytes(bytes);
  }

  async thumbnails(request: { workspaceId: string; items: Array<{ assetId?: string | undefined; path?: string | undefined; versionId?: string | undefined }>; size: ThumbnailSize }): Promise<ThumbnailRef[]> {
    const session = this.need();
    return Promise.all(request.items.map((item) => this.thumbnailOf(session, { workspaceId: request.workspaceId, ...item }, request.size)));
  }

  async preview(request: { workspaceId: string; item: Omit<AssetRequest, 'workspaceId'>; page: number }): Promise<MediaPreview> {
    const session = this.need();
    const ref = await resolveVersion(session, { workspaceId: request.workspaceId, ...request.item });
    const base = { assetId: ref.assetId, versionId: ref.versionId, versionNumber: ref.versionNumber, name: ref.name, size: ref.size, checksum: ref.checksum };
    const none = (type: MediaType, reason: NoPictureReason): MediaPreview => ({
      ...base, type, view: 'none', url: null, thumbnailUrl: null, width: null, height: null, page: null, pages: null, durationSeconds: null, reason, expiresAt: null,
    });
    let probe: ProbeMeta;
    try {
      probe = await this.probe(session, ref);
    } catch (error) {
      if (error instanceof AppError && error.code === 'too_large') return none(guessFromName(ref.name), 'too_large');
      throw error;
    }
    const { type } = probe;
    const meta = probe.source ?? { width: null, height: null, pages: null, durationSeconds: null };
    const drawn = type.format !== null && DRAWN_FORMATS.has(type.format);
    const picture = (size: ThumbnailSize, page: number) => this.signer.mint(pictureTarget(ref, size, page));
    const thumb = drawn && !probe.reason ? picture('grid', 1) : null;
    const shown = (view: MediaPreview['view'], minted: { url: string; expiresAt: string }, page: number | null = null): MediaPreview => ({
      ...base, type, view, url: minted.url, thumbnailUrl: thumb?.url ?? null, ...meta, page, reason: null, expiresAt: minted.expiresAt,
    });
    if (probe.reason) return none(type, probe.reason);
    const file = () => this.signer.mint(fileTarget(ref));
    switch (type.category) {
      case 'image':
        if (type.format && NATIVE_IMAGES.has(type.format)) return shown('image', file());
        return drawn ? shown('image', picture('preview', 1)) : none(type, 'unsupported');
      case 'psd':
        return drawn ? shown('image', picture('preview', 1)) : none(type, 'unsupported');
      case 'pdf': {
        const page = Math.min(Math.max(1, request.page), meta.pages ?? 1);
        return shown('pdf', picture('preview', page), page);
      }
      case 'video':
        return shown('video', file());
      case 'audio':
        return shown('audio', file());
      default:
        return none(type, 'unsupported');
    }
  }

  /**
   * Opens what a media URL names, after checking its capability: a cached picture (drawn first
   * if it is not there yet, `signal` saying when nobody waits any more), or a version's own bytes
   * when they are an image the browser shows as it is, a video or an audio file.
   */
  async open(capability: string, signal?: AbortSignal): Promise<OpenedMedia> {
    const verified = this.signer.verify(capability);
    if (!verified.ok) return { ok: false, status: verified.why === 'expired' ? 410 : 403, message: verified.why === 'expired' ? 'This address has expired.' : 'This address is not valid.' };
    const target: CapabilityTarget = verified.target;
    if (target.k === 'picture') return this.openPicture(target, signal);
    return this.openFile(target);
  }

  /** Queues a grid picture of a synced file, drawn when nothing visible waits. */
  prefetch(workspaceId: string, path: string): void {
    if (this.prefetchQueue.size >= 5000) return;
    this.prefetchQueue.set(`${workspaceId}\n${path}`, { workspaceId, path });
    this.prefetching ??= this.drainPrefetch().finally(() => {
      this.prefetching = null;
    });
  }

  /** Whether the picture of the bytes `checksum` names is in the cache (drawn, or known not to be drawable). */
  hasPicture(checksum: string, size: ThumbnailSize = 'grid'): boolean {
    return this.cache.get(pictureKey(checksum, size, 1)) !== undefined;
  }

  /** Resolves once every queued picture is drawn (or given up): for the bench and tests. */
  async idle(): Promise<void> {
    while (this.prefetching || this.inflight.size > 0) {
      await this.prefetching;
      await Promise.allSettled([...this.inflight.values()].map((i) => i.promise));
    }
    await this.pool.idle();
  }

  async close(): Promise<void> {
    this.closing.abort();
    this.use(null);
    await this.pool.close();
    await Promise.allSettled([...this.inflight.values()].map((i) => i.promise));
    await this.prefetching;
    this.cache.close();
  }

  private need(): MediaSessionWithEngine {
    if (!this.session) throw new AppError('not_ready', 'Asset Sync is not syncing yet: sign in and choose a folder first.');
    return this.session;
  }

  private async thumbnailOf(session: MediaSession, request: AssetRequest, size: ThumbnailSize): Promise<ThumbnailRef> {
    let ref: VersionRef;
    try {
      ref = await resolveVersion(session, request);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'not_found') throw error;
      const type = guessFromName(request.path ?? '');
      return { assetId: request.assetId ?? '', versionId: null, type, show: 'icon', url: null, reason: 'not_available', expiresAt: null };
    }
    const type = await this.knownType(session, ref);
    const icon = (reason: NoPictureReason): ThumbnailRef => ({ assetId: ref.assetId, versionId: ref.versionId, type, show: 'icon', url: null, reason, expiresAt: null });
    const fetchable = ref.size <= this.maxSourceBytes() || localSource(session.index, ref.workspaceId, ref.assetId, ref.checksum) !== null;
    if (type.category === 'video') {
      if (!fetchable) return icon('too_large');
      const minted = this.signer.mint(fileTarget(ref));
      return { assetId: ref.assetId, versionId: ref.versionId, type, show: 'video', url: minted.url, reason: null, expiresAt: minted.expiresAt };
    }
    if (type.format === null || !DRAWN_FORMATS.has(type.format)) return icon('unsupported');
    const known = this.cache.get<PictureMeta>(pictureKey(ref.checksum, size, 1));
    if (known && !known.meta.ok) return icon(known.meta.reason ?? 'unreadable');
    if (!known && !fetchable) return icon('too_large');
    const minted = this.signer.mint(pictureTarget(ref, size, 1));
    return { assetId: ref.assetId, versionId: ref.versionId, type, show: 'image', url: minted.url, reason: null, expiresAt: minted.expiresAt };
  }

  /** The type of a version: from the cache, else from the synced file's bytes, else from its name. */
  private async knownType(session: MediaSession, ref: VersionRef): Promise<MediaType> {
    const probed = this.cache.get<ProbeMeta>(probeKey(ref.checksum));
    if (probed) return probed.meta.type;
    const local = localSource(session.index, ref.workspaceId, ref.assetId, ref.checksum);
    if (!local) return guessFromName(ref.name);
    const type = await sniffFile(local.file, ref.name).catch(() => null);
    if (!type || !unchanged(local)) return guessFromName(ref.name);
    this.cache.put<ProbeMeta>(probeKey(ref.checksum), null, { type });
    return type;
  }

  /** The type and the metadata of a version, read from its bytes (fetched if need be). */
  private async probe(session: MediaSession, ref: VersionRef): Promise<ProbeMeta> {
    const known = this.cache.get<ProbeMeta>(probeKey(ref.checksum));
    if (known?.meta.probed) return known.meta;
    const source = await this.source(session, ref);
    try {
      const type = known?.meta.type.fromBytes ? known.meta.type : await sniffFile(source.file, ref.name);
      let probed: ProbeMeta = { type, probed: true };
      if (type.format !== null && DRAWN_FORMATS.has(type.format)) {
        const task = this.pool.submit({ op: 'probe', file: source.file, format: type.format, edge: THUMBNAIL_EDGE.grid, page: 1 }, 'visible');
        const outcome = await task.result;
        probed = outcome.ok ? { type, source: outcome.meta, probed: true } : { type, reason: outcome.reason, probed: true };
      }
      if (source.local && !unchanged(source.local)) return probed;
      this.cache.put(probeKey(ref.checksum), null, probed);
      return probed;
    } finally {
      source.release();
    }
  }

  /** The bytes of `ref`: the synced file if it holds them, else the cache's copy, fetched if need be. */
  private async source(session: MediaSession, ref: VersionRef, signal?: AbortSignal): Promise<Source> {
    const local = localSource(session.index, ref.workspaceId, ref.assetId, ref.checksum);
    if (local) return { file: local.file, local, release: () => undefined };
    const key = sourceKey(ref.checksum);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const release = this.cache.pin(key);
      const cached = this.cache.get(key);
      if (cached?.file) return { file: cached.file, local: null, release };
      release();
      await this.fetch(session, ref, signal);
    }
    throw new AppError('not_available', 'The version could not be kept in the picture cache.');
  }

  private fetch(session: MediaSession, ref: VersionRef, signal?: AbortSignal): Promise<void> {
    if (ref.size > this.maxSourceBytes()) {
      return Promise.reject(new AppError('too_large', 'This version is too large to fetch for a preview. Use "Open" to see it.'));
    }
    const key = sourceKey(ref.checksum);
    let running = this.fetches.get(key);
    if (!running) {
      running = (async () => {
        const temp = this.cache.tempPath();
        await downloadVersionTo(session.client, ref, temp, signal);
        this.cache.adopt(key, temp, { versionId: ref.versionId }, ref.size);
      })().finally(() => this.fetches.delete(key));
      this.fetches.set(key, running);
    }
    return running;
  }

  /** A fetched version may take at most a quarter of the cache. */
  private maxSourceBytes(): number {
    return Math.floor(this.cache.capBytes / 4);
  }

  private async openPicture(target: PictureTarget, signal?: AbortSignal): Promise<OpenedMedia> {
    const key = pictureKey(target.c, target.size, target.page);
    let entry = this.cache.get<PictureMeta>(key);
    if (!entry) {
      const session = this.session;
      if (!session) return { ok: false, status: 503, message: 'Asset Sync is not syncing at the moment.' };
      try {
        const ref = await this.refFor(session, target);
        if (!ref) return { ok: false, status: 404, message: 'That version is gone from the service.' };
        await this.picture(session, ref, target.size, target.page, 'visible', signal);
      } catch (error) {
        if (error instanceof NotDrawn || signal?.aborted) return { ok: false, status: 503, message: 'The picture was not made.' };
        this.options.logger?.warn({ err: error }, 'a picture could not be made');
        return { ok: false, status: 404, message: 'There is no picture of this file.' };
      }
      entry = this.cache.get<PictureMeta>(key);
    }
    if (!entry?.file || !entry.meta.ok) return { ok: false, status: 404, message: 'There is no picture of this file.' };
    const handle = await open(entry.file, constants.O_RDONLY).catch(() => null);
    if (!handle) return { ok: false, status: 404, message: 'There is no picture of this file.' };
    return { ok: true, handle, size: (await handle.stat()).size, contentType: 'image/webp', name: 'picture.webp', immutable: true };
  }

  private async openFile(target: FileTarget): Promise<OpenedMedia> {
    const session = this.session;
    const local = session ? localSource(session.index, target.w, target.a, target.c) : null;
    let file = local?.file ?? this.cache.get(sourceKey(target.c))?.file ?? null;
    if (!file && session) {
      try {
        const ref = await this.refFor(session, target);
        if (!ref) return { ok: false, status: 404, message: 'That version is gone from the service.' };
        await this.fetch(session, ref);
      } catch {
        return { ok: false, status: 404, message: 'That version could not be fetched.' };
      }
      file = this.cache.get(sourceKey(target.c))?.file ?? null;
    }
    if (!file) return { ok: false, status: 404, message: 'That version is not on this computer.' };
    // O_NOFOLLOW: a symlink put at the synced path since the check leads nowhere.
    const handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch(() => null);
    if (!handle) return { ok: false, status: 404, message: 'That version is not on this computer.' };
    try {
      const stats = await handle.stat({ bigint: true });
      if (local && (stats.ino !== BigInt(local.stamp.inode) || Number(stats.size) !== local.stamp.size || stats.mtimeNs.toString() !== local.stamp.mtimeNs)) {
        throw new Changed();
      }
      const head = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
      const type = await sniffBytes(head.subarray(0, bytesRead), '');
      const served = servedAsItself(type);
      if (!served) throw new NotServed();
      return { ok: true, handle, size: Number(stats.size), contentType: served, name: 'media', immutable: local === null };
    } catch (error) {
      await handle.close();
      if (error instanceof Changed) return { ok: false, status: 410, message: 'The file changed since this address was made. Ask again.' };
      if (error instanceof NotServed) return { ok: false, status: 403, message: 'This kind of file is not shown as it is.' };
      throw error;
    }
  }

  /** The version a capability names, as the index or the service has it now; null if its bytes are no longer those named. */
  private async refFor(session: MediaSession, target: PictureTarget | FileTarget): Promise<VersionRef | null> {
    const ref = await resolveVersion(session, { workspaceId: target.w, assetId: target.a, versionId: target.v }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    });
    return ref?.checksum === target.c ? ref : null;
  }

  /** Draws (or finds) one picture; callers asking for the same one share the work. */
  private async picture(session: MediaSession, ref: VersionRef, size: ThumbnailSize, page: number, priority: Priority, signal?: AbortSignal): Promise<PictureMeta> {
    const key = pictureKey(ref.checksum, size, page);
    const cached = this.cache.get<PictureMeta>(key);
    if (cached) return cached.meta;
    let job = this.inflight.get(key);
    if (!job) {
      const controller = new AbortController();
      const created: Inflight = { promise: Promise.resolve({ ok: false }), controller, waiters: 0, priority, task: null };
      created.promise = this.draw(session, ref, size, page, created).finally(() => this.inflight.delete(key));
      this.inflight.set(key, created);
      job = created;
    } else if (priority === 'visible' && job.priority === 'background') {
      job.priority = 'visible';
      job.task?.promote();
    }
    const shared = job;
    shared.waiters += 1;
    if (!signal) return shared.promise;
    if (signal.aborted) throw new NotDrawn('nobody waits for the picture');
    return new Promise<PictureMeta>((resolve, reject) => {
      const leave = () => {
        shared.waiters -= 1;
        if (shared.waiters === 0) {
          shared.controller.abort();
          shared.task?.cancel();
        }
        reject(new NotDrawn('nobody waits for the picture'));
      };
      signal.addEventListener('abort', leave, { once: true });
      shared.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
    });
  }

  private async draw(session: MediaSession, ref: VersionRef, size: ThumbnailSize, page: number, job: Inflight): Promise<PictureMeta> {
    const key = pictureKey(ref.checksum, size, page);
    let source: Source;
    try {
      source = await this.source(session, ref, job.controller.signal);
    } catch (error) {
      if (error instanceof AppError && error.code === 'too_large') return { ok: false, reason: 'too_large' };
      throw error;
    }
    try {
      const known = this.cache.get<ProbeMeta>(probeKey(ref.checksum))?.meta;
      const type = known?.type.fromBytes ? known.type : await sniffFile(source.file, ref.name);
      if (type.format === null || !DRAWN_FORMATS.has(type.format)) {
        return this.cache.put<PictureMeta>(key, null, { ok: false, reason: 'unsupported' }).meta;
      }
      if (job.controller.signal.aborted) throw new NotDrawn('nobody waits for the picture');
      job.task = this.pool.submit({ op: 'render', file: source.file, format: type.format, edge: THUMBNAIL_EDGE[size], page }, job.priority);
      const outcome: RenderOutcome = await job.task.result;
      // The synced file changed while it was read: the picture may show another version.
      if (source.local && !unchanged(source.local)) throw new NotDrawn('the file changed while its picture was drawn');
      if (!outcome.ok) return this.cache.put<PictureMeta>(key, null, { ok: false, reason: outcome.reason }).meta;
      if (!known?.source) this.cache.put<ProbeMeta>(probeKey(ref.checksum), null, { type, source: outcome.meta, probed: true });
      const meta: PictureMeta = { ok: true, width: outcome.width, height: outcome.height, source: outcome.meta };
      return this.cache.put(key, outcome.picture, meta).meta;
    } finally {
      source.release();
    }
  }

  /** Waits while the sync is busy: up to DEFER_WHILE_SYNCING_MS, then for nine times the last picture's time. */
  private async yieldToSync(session: MediaSessionWithEngine): Promise<void> {
    const engine = session.engine;
    // A session the app has let go of may be closed already: its engine's status reads a closed index.
    while (engine && this.session === session && !this.closing.signal.aborted && BUSY_STATES.has(engine.status().state)) {
      this.deferredSince ??= performance.now();
      if (performance.now() - this.deferredSince >= DEFER_WHILE_SYNCING_MS) {
        await sleep(Math.min(5_000, this.lastBackgroundMs * (1 / BACKGROUND_SHARE_WHILE_SYNCING - 1)), this.closing.signal);
        return;
      }
      await sleep(250, this.closing.signal);
    }
    this.deferredSince = null;
  }

  private async drainPrefetch(): Promise<void> {
    for (;;) {
      const next = this.prefetchQueue.entries().next();
      if (next.done) return;
      const [id, { workspaceId, path }] = next.value;
      this.prefetchQueue.delete(id);
      const session = this.session;
      if (!session || this.closing.signal.aborted) return;
      try {
        await this.yieldToSync(session);
        if (this.session !== session) return;
        const started = performance.now();
        const base = session.index.base.getFile(workspaceId, path);
        if (!base) continue;
        const ref = await resolveVersion(session, { workspaceId, assetId: base.assetId, versionId: base.versionId });
        const type = await this.knownType(session, ref);
        if (type.format !== null && DRAWN_FORMATS.has(type.format) && localSource(session.index, workspaceId, ref.assetId, ref.checksum)) {
          await this.picture(session, ref, 'grid', 1, 'background');
        }
        this.lastBackgroundMs = performance.now() - started;
      } catch (error) {
        if (!(error instanceof NotDrawn)) this.options.logger?.debug({ err: error, path }, 'no picture made ahead of need');
      }
    }
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

class Changed extends Error {}
class NotServed extends Error {}

/** The content type a version is served with as it is, or null when it is never served raw (SVG, HTML, PDF, documents...). */
function servedAsItself(type: MediaType): string | null {
  if (!type.mime) return null;
  if (type.category === 'image' && type.format !== null && NATIVE_IMAGES.has(type.format)) return type.mime;
  if (type.category === 'video' || type.category === 'audio') return type.mime;
  return null;
}

const pictureKey = (checksum: string, size: ThumbnailSize, page: number): string => `picture:${PICTURE_GENERATION}:${size}:${page}:${checksum}`;
const probeKey = (checksum: string): string => `probe:${PICTURE_GENERATION}:${checksum}`;
const sourceKey = (checksum: string): string => `source:${checksum}`;

function pictureTarget(ref: VersionRef, size: ThumbnailSize, page: number): PictureTarget {
  return { k: 'picture', w: ref.workspaceId, a: ref.assetId, v: ref.versionId, c: ref.checksum, size, page };
}

function fileTarget(ref: VersionRef): FileTarget {
  return { k: 'file', w: ref.workspaceId, a: ref.assetId, v: ref.versionId, c: ref.checksum };
}
