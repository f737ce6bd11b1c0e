/**
 * The headless daemon's transport (`asset-sync sync --ui`): calls are `POST /api/<channel>` with a
 * JSON body, events arrive over one shared `EventSource('/api/events')`. The session token came in
 * the page's URL; the server answered with a cookie, so every later request carries it.
 */
import type { AssetSyncBridge, Channel, RequestOf, Responses } from '../../../shared/ipc.js';
import { EVENT_NAMES, type EventName, type UiEvents } from '../../../shared/ui-events.js';
import { BridgeFailure } from './errors.js';

type Listener = (...args: unknown[]) => void;

export interface HttpBridgeOptions {
  /** Where the API lives (default `/api`). */
  apiBase?: string;
  fetch?: typeof fetch;
  EventSource?: typeof EventSource;
}

export function createHttpBridge(options: HttpBridgeOptions = {}): AssetSyncBridge {
  const apiBase = (options.apiBase ?? '/api').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const EventSourceImpl = options.EventSource ?? EventSource;
  const listeners = new Map<EventName, Set<Listener>>();
  let source: EventSource | null = null;

  function openEvents(): void {
    if (source) return;
    source = new EventSourceImpl(`${apiBase}/events`);
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (message) => {
        const args = decodeEventArgs((message as MessageEvent<string>).data);
        if (args) for (const listener of listeners.get(name) ?? []) listener(...args);
      });
    }
  }

  return {
    async invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Responses[C]> {
      let response: Response;
      try {
        response = await doFetch(`${apiBase}/${channel}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(request),
        });
      } catch (_error) {
        throw new BridgeFailure('unreachable', 'Asset Sync is not responding. Is it still running?');
      }
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw failureFrom(response.status, body);
      return body as Responses[C];
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
  };
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
