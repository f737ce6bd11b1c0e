/**
 * Every channel of the IPC contract (shared/ipc.ts) over one running session: the engine, the
 * service client, the index and the config file. Plain Node: the Electron main process and the
 * headless UI server (`asset-sync sync --ui`) host the same object behind their transports.
 *
 * Each call is validated with its zod schema before anything runs, and every failure leaves as
 * a BridgeError (a code and a sentence for the user). The engine's events are re-emitted as
 * UiEvents. Settings apply to the running engine (poll interval, bandwidth limit, workspaces and
 * their excluded folders); only another sync folder or account opens a new session, after the
 * old one closed and released the root's lock.
 */
import { EventEmitter } from 'node:events';
import { mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import type { ActivityItem, EngineEvents, EngineStatus } from '../../shared/engine.js';
import { activityInput, activityItem } from '../index/activity.js';
import { Requests, type BridgeError, type Channel, type ParsedRequestOf, type Responses, type UiEvents } from '../../shared/ipc.js';
import { saveConfig, type Config } from '../config.js';
import { placeRemoteTree, treeFromListing } from '../engine/remote-tree.js';
import { resolveInsideRoot } from '../local/paths.js';
import type { Logger } from '../logging.js';
import { accountRef, type ApiCredentials, type SecretStore } from '../secrets/secret-store.js';
import { ServiceClient } from '../service-client/index.js';
import { AppError, isInternal, toBridgeError } from './bridge-errors.js';
import { listFolderStart, nameLockHolders, type FolderStart } from './files.js';
import type { MediaService } from '../media/media-service.js';
import { mediaHandlers } from './media.js';
import type { AppHooks } from './hooks.js';
import { changeDecision, decideReview, decidedOf, listReviews, markReviewsRead, undoDecision } from './reviews.js';
import { addComment, listComments, listMembers } from './comments.js';
import { listConflicts } from './conflicts.js';
import { setAssetLock } from '../engine/asset-lock.js';
import type { AppSession, SessionOpener } from './session.js';
import { applySettings, engineChanges, mediaChanges, settingsView } from './settings.js';
import { openChecked } from './open-file.js';
import { privateTempRoot } from './private-temp.js';
import { VersionSummaries } from './version-summaries.js';
import { assetAt, listVersions, newestAuthor, openVersion, restoreVersion, saveVersionCopy, setVersionNote, type VersionsContext } from './versions.js';

export interface SignInTarget {
  baseUrl: string;
  accountId: string;
}

export interface AppApiOptions {
  /** The config file read at start and rewritten by Settings. */
  configFile: string;
  config: Config;
  /** Where Sign in stores the key and secret (the OS keychain in the desktop app). */
  secrets: SecretStore;
  hooks: AppHooks;
  openSession: SessionOpener;
  /** A client for calls made without a session (checking a sign-in, listing workspaces first). */
  createClient?: (target: SignInTarget, credentials: ApiCredentials) => ServiceClient;
  logger?: Logger | undefined;
  /** Parent of the folders opened versions are written to (default: this user's private temp folder, private-temp.ts). */
  tempRoot?: string;
  /** The sync folder a first sign-in uses until the user picks another. */
  defaultRoot?: string;
  /**
   * A session the host opened (the command line's). The AppApi uses it, and closes it when it
   * opens another (another sync folder, a new sign-in) or closes: the root's lock goes with the
   * session, and the next one cannot open while it is held. Its `close` must be safe to call twice.
   */
  session?: AppSession | null;
  /** How long to wait before opening the session again after it failed (default 30 s). */
  reopenDelayMs?: number;
  /** Thumbnails and previews (main/media); the AppApi points it at each session and closes it with itself. */
  media?: MediaService | undefined;
}

/** What a transport sends back for one call: the answer, or why there is none. */
export type BridgeResult<T = unknown> = { ok: true; value: T } | { ok: false; error: BridgeError };

type Handlers = { [C in Channel]: (request: ParsedRequestOf<C>) => Promise<Responses[C]> };

const ENGINE_EVENTS: ReadonlyArray<keyof EngineEvents> = ['status', 'transfer', 'activity', 'problem', 'review'];
const IDLE: Omit<EngineStatus, 'state'> = { workspaces: [], transfers: [], paused: false };

const RETRIED_OPEN_ERRORS = new Set(['offline', 'service_error', 'busy', 'internal']);

const defaultClient = (target: SignInTarget, credentials: ApiCredentials): ServiceClient =>
  new ServiceClient({ baseUrl: target.baseUrl, accountId: target.accountId, credentials, maxAttempts: 2 });

export class AppApi extends EventEmitter<UiEvents> {
  private config: Config;
  private session: AppSession | null = null;
  private unsubscribe: (() => void) | null = null;
  private signedInFlag: boolean;
  private opening = false;
  private openError: BridgeError | null = null;
  private selfUserId: Promise<string | null> | null = null;
  private reopenTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private privateTemp: Promise<string> | null = null;
  private readonly summaries = new VersionSummaries();
  /** Session changes run one at a time, in order. */
  private lifecycle: Promise<void> = Promise.resolve();
  private readonly handlers: Handlers;
  /** Views of the app open now (the window shown, web pages following the events). */
  private views = 0;

  constructor(private readonly options: AppApiOptions) {
    super();
    this.config = options.config;
    this.signedInFlag = Boolean(options.session);
    if (options.session) this.attach(options.session);
    this.handlers = this.createHandlers();
  }

  /** Opens the session when the config is complete and credentials are found; starts the engine. */
  async start(): Promise<void> {
    if (this.session) {
      await this.session.engine.start();
      return;
    }
    // Signed in as far as we know: opening the session tells (no stored key → signed out).
    this.signedInFlag = Boolean(this.config.baseUrl && this.config.accountId);
    await this.serially(() => this.reopen());
  }

  get signedIn(): boolean {
    return this.signedInFlag;
  }

  status(): EngineStatus {
    if (this.session) return this.session.engine.status();
    if (!this.signedInFlag) return { state: 'stopped', ...IDLE };
    if (this.opening) return { state: 'starting', ...IDLE };
    return { state: this.openError?.code === 'offline' ? 'offline' : 'attention', ...IDLE };
  }

  /** What serves the media URLs the media channels hand out, if this host makes pictures. */
  get media(): MediaService | null {
    return this.options.media ?? null;
  }

  /**
   * A view of the app opened: the window is shown, or a web page follows the event stream. While
   * any is open, changes from the service and review requests are asked for every few seconds
   * (the engine's poll cadence). Returns what closes this view; calling it again does nothing.
   */
  openView(): () => void {
    this.views += 1;
    this.session?.engine.setWatched(true);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.views -= 1;
      this.session?.engine.setWatched(this.views > 0);
    };
  }

  /** Asks the UI to show a view (a notification was clicked, the tray's "Open"). */
  navigate(target: UiEvents['navigate'][0]): void {
    this.emit('navigate', target);
  }

  /** Validates and runs one call; rejects with an AppError whose code and message are for the user. */
  async handle<C extends Channel>(channel: C, rawRequest: unknown): Promise<Responses[C]> {
    if (typeof channel !== 'string' || !Object.hasOwn(Requests, channel)) throw new AppError('unknown_channel', 'Asset Sync does not know that request.');
    const parsed = Requests[channel].safeParse(rawRequest ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'request'}: ${i.message}`);
      throw new AppError('invalid_request', `The request is not valid (${issues.join('; ')}).`);
    }
    try {
      return await (this.handlers[channel] as (request: unknown) => Promise<Responses[C]>)(parsed.data);
    } catch (error) {
      const bridge = toBridgeError(error);
      if (isInternal(bridge)) this.options.logger?.error({ err: error, channel }, 'app request failed');
      else this.options.logger?.info({ channel, code: bridge.code }, 'app request refused');
      throw new AppError(bridge.code, bridge.message, { cause: error });
    }
  }

  /** `handle` as a value a transport can send as it is. */
  async invoke(channel: string, rawRequest: unknown): Promise<BridgeResult> {
    try {
      return { ok: true, value: await this.handle(channel as Channel, rawRequest) };
    } catch (error) {
      return { ok: false, error: toBridgeError(error) };
    }
  }

  /** Stops the engine (transfers in flight stay journalled) and closes the session it opened. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    await this.serially(() => this.detach());
    await this.options.media?.close();
  }

  private createHandlers(): Handlers {
    return {
      getStatus: async () => this.status(),
      getActivity: async ({ workspaceId, limit }) => {
        if (!this.session) return [];
        return this.session.index.activity.list({ ...(workspaceId ? { workspaceId } : {}), limit }).map(activityItem);
      },
      listFiles: async ({ workspaceId, folder }) => (await this.listFolder(workspaceId, folder, Infinity)).entries,
      listFilesFirst: async ({ workspaceId, folder, limit }) => this.listFolder(workspaceId, folder, limit),
      openFile: async ({ runConfirmed, ...ref }) => {
        const s = this.need();
        const absPath = await this.existingPath(ref);
        const uploadedBy = async () => newestAuthor(s.client, ref.workspaceId, assetAt(s.index, ref));
        return openChecked(this.options.hooks, absPath, { name: basename(ref.path), uploadedBy }, runConfirmed);
      },
      showInFolder: async (ref) => {
        await this.options.hooks.showItemInFolder(await this.existingPath(ref));
        return { ok: true };
      },
      listVersions: async (ref) => listVersions(await this.versions(), ref),
      openVersion: async ({ versionId, runConfirmed, ...ref }) => openVersion(await this.versions(), ref, versionId, runConfirmed),
      saveVersionCopy: async ({ versionId, ...ref }) => saveVersionCopy(await this.versions(), ref, versionId),
      restoreVersion: async ({ versionId, note, ...ref }) => {
        const s = this.need();
        const restored = await restoreVersion(await this.versions(), ref, versionId, note);
        const item: ActivityItem = {
          at: new Date().toISOString(),
          workspaceId: ref.workspaceId,
          kind: 'restored',
          path: ref.path,
          message: `Restored version ${restored.from} of ${ref.path} as version ${restored.number}`,
          version: { assetId: restored.assetId, versionId: restored.versionId, number: restored.number },
        };
        s.index.activity.add(activityInput(item));
        this.emit('activity', item);
        s.engine.trigger(ref.workspaceId);
        return { versionId: restored.versionId };
      },
      setVersionNote: async ({ versionId, note, ...ref }) => {
        const updated = await setVersionNote(await this.versions(), ref, versionId, note);
        this.summaries.remember(ref.workspaceId, { versionId: updated.id, number: updated.number, author: updated.author, mine: updated.mine, note: updated.description });
        return updated;
      },
      describeVersions: async ({ workspaceId, items }) => {
        const s = this.need();
        return this.summaries.describe(s.client, workspaceId, items, await this.userId(s));
      },
      listReviews: async () => {
        const s = this.need();
        return listReviews(s.client, s.index);
      },
      decideReview: async (decision) => {
        const s = this.need();
        return decideReview(s.client, s.index, decision);
      },
      changeDecision: async (change) => {
        const s = this.need();
        return changeDecision(s.client, s.index, change);
      },
      undoDecision: async (undo) => {
        const s = this.need();
        return undoDecision(s.client, s.index, undo);
      },
      listDecided: async () => decidedOf(this.need().index),
      listComments: async ({ workspaceId, assetId }) => {
        const s = this.need();
        return listComments(s.client, workspaceId, assetId, await this.userId(s), this.options.logger);
      },
      addComment: async (request) => {
        const s = this.need();
        return addComment(s.client, request, await this.userId(s), this.options.logger);
      },
      listMembers: async ({ workspaceId }) => {
        const s = this.need();
        return listMembers(s.client, workspaceId, await this.userId(s));
      },
      listConflicts: async () => {
        const s = this.need();
        return listConflicts(s.index, s.client, this.options.logger);
      },
      resolveConflict: async ({ workspaceId, copyPath, keep, theirsVersionId }) => {
        const done = await this.need().engine.resolveConflict(workspaceId, copyPath, keep, theirsVersionId);
        return { keep: done.keep, path: done.path, copyPath: done.copyPath, versionNumber: done.version?.number ?? null };
      },
      setLock: async ({ workspaceId, path, locked }) => {
        const s = this.need();
        const synced = s.index.base.getFile(workspaceId, path);
        if (!synced) throw new AppError('not_synced', `${basename(path)} is not on the service yet: it can be locked once it is synced.`);
        const lock = await setAssetLock(s.client, workspaceId, synced.assetId, locked);
        // The listing brings the lock to the Files view.
        s.engine.trigger(workspaceId);
        const byYou = lock.holderId !== null && lock.holderId === (await this.userId(s));
        return { locked: lock.locked, lockedBy: lock.locked && !byYou ? 'another user' : null, byYou };
      },
      markReviewsRead: async ({ items }) => markReviewsRead(this.need().index, items),
      openAsset: async ({ workspaceId, assetId, runConfirmed }) => {
        const s = this.need();
        const path = s.index.remote.getFile(workspaceId, assetId)?.path ?? null;
        if (path === null) return { path, opened: false };
        const abs = resolveInsideRoot(s.index.workspaces.require(workspaceId).localPath, path);
        if (!(await exists(abs))) return { path, opened: false };
        const uploadedBy = async () => newestAuthor(s.client, workspaceId, assetId);
        return { path, ...(await openChecked(this.options.hooks, abs, { name: basename(path), uploadedBy }, runConfirmed)) };
      },
      pause: async () => {
        this.need().engine.pause();
        return this.status();
      },
      resume: async () => {
        this.need().engine.resume();
        return this.status();
      },
      retry: async ({ workspaceId }) => {
        if (!this.session) {
          await this.serially(() => this.reopen());
          return this.status();
        }
        const s = this.session;
        const ids = workspaceId ? [workspaceId] : s.index.workspaces.list().map((w) => w.id);
        for (const id of ids) {
          s.index.errors.clearAll(id);
          s.engine.trigger(id);
        }
        return this.status();
      },
      allowDeletions: async ({ workspaceId }) => {
        this.need().engine.allowDeletionsOnce(workspaceId);
        return this.status();
      },
      getSettings: async () => this.settings(),
      updateSettings: async (patch) => {
        const before = this.config;
        const change = applySettings(before, patch);
        if (patch.launchAtLogin !== undefined && patch.launchAtLogin !== before.launchAtLogin) {
          await this.options.hooks.setLoginItem(patch.launchAtLogin);
        }
        this.saveConfig(change.config);
        await this.serially(() => (change.reopen ? this.reopen() : this.applyToEngine(before, change.config)));
        return this.settings();
      },
      listRemoteWorkspaces: async () => {
        const synced = new Set(this.config.workspaces.map((w) => w.id));
        const workspaces = await this.withClient((client) => client.listWorkspaces());
        return workspaces.map((w) => ({ id: w.id, name: w.name, synced: synced.has(w.id) }));
      },
      listRemoteFolders: async ({ workspaceId }) => {
        const listing = await this.withClient((client) => client.getHierarchy(workspaceId));
        const placed = placeRemoteTree(treeFromListing(listing));
        return [...placed.folders.values()].map((f) => ({ id: f.folderId, path: f.path })).sort((a, b) => a.path.localeCompare(b.path));
      },
      signIn: async ({ baseUrl, accountId, key, secret }) => {
        const credentials = { key, secret };
        const client = (this.options.createClient ?? defaultClient)({ baseUrl, accountId }, credentials);
        try {
          await client.getUser();
        } catch (error) {
          throw signInFailure(error, baseUrl);
        } finally {
          await client.close();
        }
        await this.options.secrets.set(accountRef(baseUrl, accountId), credentials);
        const sameAccount = this.config.baseUrl === baseUrl && this.config.accountId === accountId;
        this.saveConfig({
          ...this.config,
          baseUrl,
          accountId,
          root: this.config.root ?? this.options.defaultRoot ?? join(homedir(), 'Asset Sync'),
          // Another account's workspaces mean nothing here: the user picks this account's.
          workspaces: sameAccount ? this.config.workspaces : [],
        });
        this.signedInFlag = true;
        await this.serially(() => this.reopen());
        return this.settings();
      },
      signOut: async () => {
        await this.serially(() => this.detach());
        const { baseUrl, accountId } = this.config;
        if (baseUrl && accountId) {
          await this.options.secrets.delete(accountRef(baseUrl, accountId)).catch((error: unknown) => {
            this.options.logger?.warn({ err: error }, 'could not delete the stored credentials');
          });
        }
        this.signedInFlag = false;
        this.emit('status', this.status());
        return this.settings();
      },
      ...mediaHandlers(this.options.media ?? null, () => this.need()),
    };
  }

  private settings() {
    const index = this.session?.index;
    return settingsView(this.config, this.signedInFlag, (id) => index?.workspaces.get(id)?.name);
  }

  private saveConfig(next: Config): void {
    saveConfig(next, this.options.configFile);
    this.config = next;
  }

  /** The first `limit` entries of a folder (Infinity: all of them), lock holders by name. */
  private async listFolder(workspaceId: string, folder: string, limit: number): Promise<FolderStart> {
    const s = this.need();
    const problems = s.engine.status().workspaces.find((w) => w.workspaceId === workspaceId)?.problems ?? [];
    const start = await listFolderStart({ index: s.index, workspaceId, folder, problems, selfUserId: await this.userId(s) }, limit);
    return { entries: await nameLockHolders(start.entries, s.client, workspaceId, this.options.logger), total: start.total };
  }

  private need(): AppSession {
    if (this.session) return this.session;
    if (!this.signedInFlag) throw new AppError('signed_out', 'Sign in first, in Settings.');
    if (this.opening) throw new AppError('not_ready', 'Asset Sync is still starting. Try again in a moment.');
    throw new AppError(this.openError?.code ?? 'not_ready', this.openError?.message ?? 'Choose a sync folder and the workspaces to sync in Settings.');
  }

  private async withClient<T>(fn: (client: ServiceClient) => Promise<T>): Promise<T> {
    if (this.session) return fn(this.session.client);
    const { baseUrl, accountId } = this.config;
    const credentials = baseUrl && accountId && this.signedInFlag ? await this.options.secrets.get(accountRef(baseUrl, accountId)) : undefined;
    if (!baseUrl || !accountId || !credentials) throw new AppError('signed_out', 'Sign in first, in Settings.');
    const client = (this.options.createClient ?? defaultClient)({ baseUrl, accountId }, credentials);
    try {
      return await fn(client);
    } finally {
      await client.close();
    }
  }

  private async versions(): Promise<VersionsContext> {
    const s = this.need();
    return { client: s.client, index: s.index, hooks: this.options.hooks, tempRoot: await this.tempRoot(), selfUserId: await this.userId(s) };
  }

  /** The folder opened versions go to: the one given, else this user's own (private-temp.ts), found once. */
  private tempRoot(): Promise<string> {
    if (this.options.tempRoot) {
      const given = this.options.tempRoot;
      return mkdir(given, { recursive: true, mode: 0o700 }).then(() => given);
    }
    this.privateTemp ??= privateTempRoot().then(({ path, refused }) => {
      if (refused) this.options.logger?.warn({ refused, used: path }, 'the usual temp folder is not this user’s alone; using a fresh private one');
      return path;
    });
    // A failure (a full disk) is tried again at the next call.
    this.privateTemp.catch(() => (this.privateTemp = null));
    return this.privateTemp;
  }

  private async existingPath(ref: { workspaceId: string; path: string }): Promise<string> {
    const s = this.need();
    const abs = resolveInsideRoot(s.index.workspaces.require(ref.workspaceId).localPath, ref.path);
    if (!(await exists(abs))) throw new AppError('not_found', 'The file is not on this device (yet).');
    return abs;
  }

  /** Who we are, to tell our own locks from others'; null when the service cannot say. */
  private userId(s: AppSession): Promise<string | null> {
    this.selfUserId ??= s.client.getUser().then(
      (u) => u.id ?? null,
      () => {
        this.selfUserId = null;
        return null;
      },
    );
    return this.selfUserId;
  }

  private serially(step: () => Promise<void>): Promise<void> {
    const run = this.lifecycle.then(step);
    this.lifecycle = run.catch(() => undefined);
    return run;
  }

  /** The settings changed from `before` to `after`: the running engine takes them over. */
  private async applyToEngine(before: Config, after: Config): Promise<void> {
    const pictures = mediaChanges(before, after);
    if (pictures.prefetch !== undefined) this.media?.setPrefetch(pictures.prefetch);
    if (pictures.cacheBytes !== undefined) this.media?.setCacheBytes(pictures.cacheBytes);
    const changes = engineChanges(before, after);
    if (Object.keys(changes).length === 0) return;
    const session = this.session;
    // No session (not configured yet, or it could not open): one opened now uses the new settings.
    if (!session) return this.reopen();
    try {
      if (changes.pollIntervalMs !== undefined) session.engine.setPollInterval(changes.pollIntervalMs);
      if (changes.bandwidthLimit !== undefined) session.engine.setBandwidthLimit(changes.bandwidthLimit ?? undefined);
      if (changes.transferLimits) session.engine.setTransferLimits(changes.transferLimits);
      if (changes.workspaces) await session.engine.setWorkspaces(changes.workspaces);
    } catch (error) {
      // A workspace could not be set up (the service out of reach, or it refused): a session
      // opened afresh says why, and tries again when the service may be back.
      this.options.logger?.warn({ err: error }, 'could not apply the settings to the running sync; opening it again');
      await this.reopen();
    }
  }

  /** Closes the current session, then opens one for the current config if it is complete. */
  private async reopen(): Promise<void> {
    const { baseUrl, accountId, root } = this.config;
    const complete = !this.closed && this.signedInFlag && Boolean(baseUrl && accountId && root);
    // Between the old session and the new one the status says "starting", not a problem.
    this.opening = complete;
    this.openError = null;
    await this.detach();
    if (!complete) return;
    this.emit('status', this.status());
    try {
      const session = await this.options.openSession(this.config);
      this.opening = false;
      this.attach(session);
      await session.engine.start();
    } catch (error) {
      this.opening = false;
      this.openError = toBridgeError(error);
      if (this.openError.code === 'signed_out') this.signedInFlag = false;
      this.options.logger?.warn({ err: error }, 'could not start syncing');
      this.emit('status', this.status());
      // Worth another try only when the service or the network may come back on its own.
      if (RETRIED_OPEN_ERRORS.has(this.openError.code)) this.scheduleReopen();
    }
  }

  private scheduleReopen(): void {
    if (this.reopenTimer || this.closed) return;
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = null;
      if (!this.session && !this.closed) void this.serially(() => this.reopen());
    }, this.options.reopenDelayMs ?? 30_000);
    this.reopenTimer.unref();
  }

  private attach(session: AppSession): void {
    this.session = session;
    this.selfUserId = null;
    const forwards = ENGINE_EVENTS.map((name) => {
      const forward = (...args: unknown[]) => (this.emit as (event: string, ...a: unknown[]) => boolean)(name, ...args);
      session.engine.on(name, forward as never);
      return () => session.engine.off(name, forward as never);
    });
    this.unsubscribe = () => forwards.forEach((off) => off());
    session.engine.setWatched(this.views > 0);
    this.options.media?.use(session);
    this.emit('status', this.status());
  }

  private async detach(): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.session = null;
    this.options.media?.use(null);
    try {
      await session.engine.stop();
    } finally {
      this.unsubscribe?.();
      this.unsubscribe = null;
      // The host's session too: its root lock must be free before another session opens.
      await session.close();
    }
    this.emit('status', this.status());
  }
}

async function exists(absPath: string): Promise<boolean> {
  try {
    await stat(absPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

function signInFailure(error: unknown, baseUrl: string): AppError {
  const bridge = toBridgeError(error);
  if (bridge.code === 'auth' || bridge.code === 'forbidden' || bridge.code === 'rejected') {
    return new AppError('auth', 'The key or secret was not accepted for this account. Check both and the account id.', { cause: error });
  }
  if (bridge.code === 'offline' || bridge.code === 'not_found') {
    return new AppError('offline', `No Asset Collaboration Service answered at ${baseUrl}. Check the address.`, { cause: error });
  }
  return new AppError(bridge.code, bridge.message, { cause: error });
}
