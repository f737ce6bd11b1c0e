/**
 * One small store: it mirrors what main reports (status, activity, reviews) and which screen is
 * showing. It never decides sync state itself: user actions go out as calls, and the answers and
 * events come back in (one-way state).
 */
import type { AssetSyncBridge, ReviewItem } from '../../../shared/ipc.js';
import type { ActivityItem, EngineStatus, Problem, TransferProgress } from '../../../shared/engine.js';
import type { Connection, ConnectionWatch } from '../bridge/connection.js';
import { errorMessage } from '../bridge/errors.js';
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
}

const ACTIVITY_KEPT = 50;

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

  const store: Store = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      const stops = [
        bridge.on('status', (status) => store.applyStatus(status)),
        bridge.on('transfer', (transfer) => update((s) => withStatus(s, (status) => withTransfer(status, transfer)))),
        bridge.on('problem', (problem) => update((s) => withStatus(s, (status) => withProblem(status, problem)))),
        bridge.on('activity', (item) =>
          update((s) => ({ ...s, activity: { kind: 'ready', value: [item, ...(s.activity.kind === 'ready' ? s.activity.value : [])].slice(0, ACTIVITY_KEPT) } })),
        ),
        // Main remembers what was seen; the fresh lists carry it.
        bridge.on('review', () => void store.reloadReviews()),
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
      update((s) => ({ ...s, status: { kind: 'ready', value: status } }));
    },
    reloadStatus: () => load('status', () => bridge.invoke('getStatus', {})),
    reloadActivity: () => load('activity', () => bridge.invoke('getActivity', { limit: ACTIVITY_KEPT })),
    reloadReviews: () => load('reviews', () => bridge.invoke('listReviews', {})),
  };
  return store;
}

function withStatus(state: UiState, change: (status: EngineStatus) => EngineStatus): UiState {
  if (state.status.kind !== 'ready') return state;
  return { ...state, status: { kind: 'ready', value: change(state.status.value) } };
}

/** A transfer's progress between two status reports; finished ones leave the list. */
function withTransfer(status: EngineStatus, transfer: TransferProgress): EngineStatus {
  const others = status.transfers.filter((t) => t.id !== transfer.id);
  const finished = transfer.state === 'done' || transfer.state === 'failed';
  if (finished) return others.length === status.transfers.length ? status : { ...status, transfers: others };
  const index = status.transfers.findIndex((t) => t.id === transfer.id);
  const transfers = index < 0 ? [...status.transfers, transfer] : status.transfers.map((t, i) => (i === index ? transfer : t));
  return { ...status, transfers };
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
