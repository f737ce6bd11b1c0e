/**
 * The headless daemon's transport (`asset-sync sync --ui`): calls are `POST /api/<channel>` with a
 * JSON body, events arrive as server-sent events from `GET /api/events`. Every request carries the
 * page's token in an `Authorization` header (page-token.ts says where the page keeps it), and no
 * cookie: the event stream is read with `fetch`, since an EventSource can send no header.
 *
 * The daemon can go away under the page (stopped, crashed, killed): the bridge watches the event
 * stream and the calls, and says so through `connection` (see connection.ts).
 */
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import type { AssetSyncBridge, Channel, RequestOf, Responses } from '../../../shared/ipc.js';
import { EVENT_NAMES, type EventName, type UiEvents } from '../../../shared/ui-events.js';
import type { Connection, ConnectionWatch } from './connection.js';
import { BridgeFailure } from './errors.js';

type Listener = (...args: unknown[]) => void;

export interface HttpBridgeOptions {
  /** The page's access token; null (a page opened without the printed link): every call is refused. */
  token: string | null;
  /** Where the API lives (default `/api`). */
  apiBase?: string;
  fetch?: typeof fetch;
  /** How long the event stream may be down before the page says it is not connected (default 3 s). */
  lostAfterMs?: number;
  /** How long to wait before opening the event stream again (default 2 s, doubling up to 30 s while it fails). */
  reopenAfterMs?: number;
}

export interface HttpBridge extends AssetSyncBridge {
  connection: ConnectionWatch;
}

const MAX_REOPEN_MS = 30_000;
const UNREACHABLE = 'Asset Sync is not responding. Is it still running?';
const KNOWN_EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES);

export function createHttpBridge(options: HttpBridgeOptions): HttpBridge {
  const apiBase = (options.apiBase ?? '/api').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const auth: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const lostAfterMs = options.lostAfterMs ?? 3000;
  const firstReopenMs = options.reopenAfterMs ?? 2000;
  const listeners = new Map<EventName, Set<Listener>>();
  const watchers = new Set<(connection: Connection) => void>();
  let streaming = false;
  let connection: Connection = 'connecting';
  let streamUp = false;
  let unreachable = false;
  let lostTimer: ReturnType<typeof setTimeout> | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | null = null;
  let reopenMs = firstReopenMs;

  function setConnection(next: Connection): void {
    if (next === connection) return;
    connection = next;
    for (const watcher of watchers) watcher(next);
  }

  /** What the stream and the last call say together; `expired` sticks until the page reloads. */
  function settle(streamLost: boolean): void {
    if (connection === 'expired') return;
    if (unreachable || streamLost) setConnection('lost');
    else if (streamUp) setConnection('connected');
  }

  function openEvents(): void {
    if (streaming || reopenTimer || connection === 'expired') return;
    streaming = true;
    void readEvents().then((outcome) => {
      streaming = false;
      streamUp = false;
      // The daemon no longer knows this page (it restarted with a new token): no stream will open.
      if (outcome === 'expired') return setConnection('expired');
      // A short blip reconnects before anyone notices; a stream down for longer is a lost daemon.
      lostTimer ??= setTimeout(() => {
        lostTimer = null;
        if (!streamUp) settle(true);
      }, lostAfterMs);
      reopenTimer = setTimeout(() => {
        reopenTimer = null;
        openEvents();
      }, reopenMs);
      reopenMs = Math.min(reopenMs * 2, MAX_REOPEN_MS);
    });
  }

  /** One event stream, from its request to its end (the daemon gone, or the stream cut). */
  async function readEvents(): Promise<'ended' | 'expired'> {
    let response: Response;
    try {
      response = await doFetch(`${apiBase}/events`, { headers: { ...auth, accept: 'text/event-stream' }, credentials: 'omit', cache: 'no-store' });
    } catch (_error) {
      return 'ended';
    }
    if (response.status === 401) return 'expired';
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      return 'ended';
    }
    streamUp = true;
    reopenMs = firstReopenMs;
    if (lostTimer) clearTimeout(lostTimer);
    lostTimer = null;
    // The stream answers only a page the server knows: whatever a call found before is past.
    unreachable = false;
    settle(false);
    try {
      const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) dispatch(read.value);
    } catch (_error) {
      // The stream broke off: the same as its end.
    }
    return 'ended';
  }

  function dispatch(message: EventSourceMessage): void {
    if (!message.event || !KNOWN_EVENTS.has(message.event)) return;
    const args = decodeEventArgs(message.data);
    if (args) for (const listener of listeners.get(message.event as EventName) ?? []) listener(...args);
  }

  async function call(channel: Channel, request: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await doFetch(`${apiBase}/${channel}`, {
        method: 'POST',
        credentials: 'omit',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(request),
      });
    } catch (_error) {
      unreachable = true;
      settle(false);
      throw new BridgeFailure('unreachable', UNREACHABLE);
    }
    unreachable = false;
    if (response.status === 401) setConnection('expired');
    else settle(false);
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) throw failureFrom(response.status, body);
    return body;
  }

  const bridge: HttpBridge = {
    invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Responses[C]> {
      return call(channel, request) as Promise<Responses[C]>;
    },

    on<E extends EventName>(event: E, listener: (...args: UiEvents[E]) => void): () => void {
      openEvents();
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      // Each event name keeps its own listeners, so the loose type never mixes them up.
      const loose = listener as unknown as Listener;
      set.add(loose);
      return () => {
        set.delete(loose);
      };
    },

    connection: {
      current: () => connection,
      subscribe(watcher) {
        openEvents();
        watchers.add(watcher);
        return () => {
          watchers.delete(watcher);
        };
      },
    },
  };
  return bridge;
}

/** An event's data is its arguments as a JSON array (a lone value is one argument). */
function decodeEventArgs(data: string): unknown[] | null {
  try {
    const parsed: unknown = JSON.parse(data);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch (_error) {
    return null;
  }
}

function failureFrom(status: number, body: unknown): BridgeFailure {
  const source = typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object' ? body.error : body;
  if (typeof source === 'object' && source !== null && 'message' in source && typeof source.message === 'string') {
    const code = 'code' in source && typeof source.code === 'string' ? source.code : `http_${status}`;
    return new BridgeFailure(code, source.message);
  }
  if (status === 401 || status === 403) return new BridgeFailure('unauthorized', 'This page’s session has expired. Open the address Asset Sync printed again.');
  return new BridgeFailure(`http_${status}`, `Asset Sync answered with an error (${status}).`);
}
