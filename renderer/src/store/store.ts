/**
 * One small store: it mirrors what main reports (status, activity, reviews) and which screen is
 * showing. It never decides sync state itself: user actions go out as calls, and the answers and
 * events come back in (one-way state).
 */
import type { AssetSyncBridge, ReviewItem } from '../../../shared/ipc.js';
import type { ActivityItem, EngineStatus, Problem, TransferProgress } from '../../../shared/engine.js';
import type { Connection, ConnectionWatch } from '../bridge/connection.js';
import { errorMessage } from '../bridge/errors.js';
import { createEventBuffer, type EventBatch } from './event-batch.js';
import { routeFromNavigate, type Route } from './route.js';

export type Loadable<T> = { kind: 'loading' } | { kind: 'ready'; value: T } | { kind: 'error'; message: string };

export interface ReviewLists {
  reviewRequests: ReviewItem[];
  changeRequests: ReviewItem[];
}

export interface UiState {
  status: Loadable<EngineStatus>;
  activity: Loadable<ActivityItem[]>;
  reviews: Loadable<ReviewLists>;
  route: Route;
  /** Whether Asset Sync still answers; what the page shows is stale while it does not. */
  connection: Connection;
}

export interface StoreOptions {
  /** The HTTP transport's watch on the daemon; without one (Electron) the page is always connected. */
  connection?: ConnectionWatch | null;
}

export interface Store {
  getState(): UiState;
  subscribe(listener: () => void): () => void;
  /** Subscribes to main's events and loads the first state; returns the way to stop. */
  start(): () => void;
  navigate(route: Route): void;
  /** An answer that carries the engine's status (pause, resume, retry). */
  applyStatus(status: EngineStatus): void;
  reloadStatus(): Promise<void>;
  reloadActivity(): Promise<void>;
  reloadReviews(): Promise<void>;
  /** Marks requests read in main, then shows them read (and the badge counts what is left). */
  markReviewsRead(items: readonly ReviewItem[]): Promise<void>;
}

const ACTIVITY_KEPT = 50;
/** More than any screen shows: the rest of a big queue is counted by the engine's status. */
export const TRANSFERS_KEPT = 500;
/** Events are applied at most this often (see event-batch.ts). */
const APPLY_EVERY_MS = 100;

export function createStore(bridge: AssetSyncBridge, initialRoute: Route = { view: 'status' }, options: StoreOptions = {}): Store {
  const watch = options.connection ?? null;
  let state: UiState = {
    status: { kind: 'loading' },
    activity: { kind: 'loading' },
    reviews: { kind: 'loading' },
    route: initialRoute,
    connection: watch ? watch.current() : 'connected',
  };
  const listeners = new Set<() => void>();
  const events = createEventBuffer((batch) => update((s) => applyBatch(s, batch)), { everyMs: APPLY_EVERY_MS, activityKept: ACTIVITY_KEPT });
  let reviewsReloading = false;
  let reviewsAgain = false;

  function update(change: (current: UiState) => UiState): void {
    const next = change(state);
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  }

  /** Runs a call into one slice; a failed refresh keeps what was already shown. */
  async function load<K extends 'status' | 'activity' | 'reviews'>(key: K, call: () => Promise<UiState[K] extends Loadable<infer T> ? T : never>): Promise<void> {
    try {
      const value = await call();
      update((s) => ({ ...s, [key]: { kind: 'ready', value } }));
    } catch (error) {
      update((s) => (s[key].kind === 'ready' ? s : { ...s, [key]: { kind: 'error', message: errorMessage(error) } }));
    }
  }

  /** Back after a loss: the stream brings the status, the lists are asked for again. */
  function onConnection(connection: Connection): void {
    const wasLost = state.connection === 'lost';
    update((s) => ({ ...s, connection }));
    if (wasLost && connection === 'connected') {
      void store.reloadStatus();
      void store.reloadActivity();
      void store.reloadReviews();
    }
  }

  /** Many review events in a row (a colleague's batch) ask for the lists once, then once more. */
  function reloadReviewsOnce(): void {
    if (reviewsReloading) {
      reviewsAgain = true;
      return;
    }
    reviewsReloading = true;
    void store.reloadReviews().finally(() => {
      reviewsReloading = false;
      if (!reviewsAgain) return;
      reviewsAgain = false;
      reloadReviewsOnce();
    });
  }

  const store: Store = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      const stops = [
        bridge.on('status', (status) => events.status(status)),
        bridge.on('transfer', (transfer) => events.transfer(transfer)),
        bridge.on('problem', (problem) => events.problem(problem)),
        bridge.on('activity', (item) => events.activity(item)),
        // Main remembers what was seen; the fresh lists carry it.
        bridge.on('review', () => reloadReviewsOnce()),
        () => events.stop(),
        bridge.on('navigate', (request) => store.navigate(routeFromNavigate(request))),
      ];
      if (watch) {
        stops.push(watch.subscribe((connection) => onConnection(connection)));
        onConnection(watch.current());
      }
      void store.reloadStatus();
      void store.reloadActivity();
      void store.reloadReviews();
      return () => {
        for (const stop of stops) stop();
      };
    },
    navigate(route) {
      update((s) => ({ ...s, route }));
    },
    applyStatus(status) {
      // Events that came before this answer are older than it.
      events.flush();
      update((s) => ({ ...s, status: { kind: 'ready', value: keepTransfers(status) } }));
    },
    reloadStatus: () => load('status', () => bridge.invoke('getStatus', {})),
    reloadActivity: () => load('activity', () => bridge.invoke('getActivity', { limit: ACTIVITY_KEPT })),
    reloadReviews: () => load('reviews', () => bridge.invoke('listReviews', {})),
    async markReviewsRead(items) {
      if (items.length === 0) return;
      await bridge.invoke('markReviewsRead', { items: items.map((i) => ({ kind: i.kind, remoteKey: i.remoteKey })) });
      const read = new Set(items.map(reviewKey));
      const withRead = (list: ReviewItem[]): ReviewItem[] => list.map((i) => (!i.read && read.has(reviewKey(i)) ? { ...i, read: true } : i));
      update((s) =>
        s.reviews.kind !== 'ready' ? s : { ...s, reviews: { kind: 'ready', value: { reviewRequests: withRead(s.reviews.value.reviewRequests), changeRequests: withRead(s.reviews.value.changeRequests) } } },
      );
    },
  };
  return store;
}

const reviewKey = (item: Pick<ReviewItem, 'kind' | 'remoteKey'>): string => `${item.kind}\n${item.remoteKey}`;

/** What the engine said since the last render, applied in one go. */
function applyBatch(state: UiState, batch: EventBatch): UiState {
  let next = state;
  if (batch.status) next = { ...next, status: { kind: 'ready', value: keepTransfers(batch.status) } };
  if (batch.transfers.size > 0) next = withStatus(next, (status) => withTransfers(status, batch.transfers.values()));
  for (const problem of batch.problems.values()) next = withStatus(next, (status) => withProblem(status, problem));
  if (batch.activity.length > 0) {
    const older = next.activity.kind === 'ready' ? next.activity.value : [];
    next = { ...next, activity: { kind: 'ready', value: [...batch.activity].reverse().concat(older).slice(0, ACTIVITY_KEPT) } };
  }
  return next;
}

function withStatus(state: UiState, change: (status: EngineStatus) => EngineStatus): UiState {
  if (state.status.kind !== 'ready') return state;
  return { ...state, status: { kind: 'ready', value: change(state.status.value) } };
}

/** Transfers' progress between two status reports; finished ones leave the list. */
function withTransfers(status: EngineStatus, updates: Iterable<TransferProgress>): EngineStatus {
  const byId = new Map(status.transfers.map((t) => [t.id, t]));
  for (const transfer of updates) {
    if (transfer.state === 'done' || transfer.state === 'failed') byId.delete(transfer.id);
    else byId.set(transfer.id, transfer);
  }
  return keepTransfers({ ...status, transfers: [...byId.values()] });
}

/** A queue of thousands keeps its active transfers and the first queued ones. */
function keepTransfers(status: EngineStatus): EngineStatus {
  if (status.transfers.length <= TRANSFERS_KEPT) return status;
  const active = status.transfers.filter((t) => t.state === 'active');
  const queued = status.transfers.filter((t) => t.state !== 'active');
  return { ...status, transfers: [...active, ...queued].slice(0, TRANSFERS_KEPT) };
}

/** A problem reported between two status reports: one per kind and path. */
function withProblem(status: EngineStatus, problem: Problem): EngineStatus {
  return {
    ...status,
    workspaces: status.workspaces.map((w) => {
      if (w.workspaceId !== problem.workspaceId) return w;
      const others = w.problems.filter((p) => !(p.kind === problem.kind && p.path === problem.path));
      return { ...w, problems: [...others, problem] };
    }),
  };
}
