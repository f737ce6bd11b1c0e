import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from '../../renderer/src/bridge/connection.js';
import { createHttpBridge } from '../../renderer/src/bridge/http-bridge.js';
import { takePageToken, type TokenPlace } from '../../renderer/src/bridge/page-token.js';
import { status } from './fixtures.js';

const TOKEN = 'f'.repeat(64);
const encoder = new TextEncoder();

/** One event stream the daemon answered: the test pushes events through it and cuts it. */
interface Stream {
  headers: Headers;
  credentials: RequestCredentials | undefined;
  send(name: string, args: unknown[]): void;
  /** The connection went away (the daemon stopped). */
  drop(): void;
}

/**
 * The daemon as the bridge's `fetch` sees it: `/api/events` answers a stream the test drives (or
 * `eventsAnswer` when set: a status to refuse with, or 'down' for nobody listening); calls answer
 * `callAnswer`.
 */
class FakeDaemon {
  streams: Stream[] = [];
  calls: Array<{ url: string; headers: Headers; credentials: RequestCredentials | undefined }> = [];
  eventsAnswer: number | 'down' | null = null;
  callAnswer: () => Response = () => json(status());

  readonly fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    const headers = new Headers(init.headers);
    if (!url.endsWith('/events')) {
      this.calls.push({ url, headers, credentials: init.credentials });
      return this.callAnswer();
    }
    if (this.eventsAnswer === 'down') throw new TypeError('Failed to fetch');
    if (this.eventsAnswer !== null) return new Response(null, { status: this.eventsAnswer });
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    this.streams.push({
      headers,
      credentials: init.credentials,
      send: (name, args) => controller.enqueue(encoder.encode(`event: ${name}\ndata: ${JSON.stringify(args)}\n\n`)),
      drop: () => controller.close(),
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });

  get latest(): Stream {
    return this.streams.at(-1) as Stream;
  }
}

const json = (body: unknown, init: ResponseInit = {}) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' }, ...init });
/** Lets the streams and promises move (real macrotask turns; only the clock is fake). */
const settle = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

function bridgeWith(daemon: FakeDaemon, token: string | null = TOKEN) {
  const bridge = createHttpBridge({ token, fetch: daemon.fetch as unknown as typeof fetch });
  const seen: Connection[] = [];
  bridge.connection.subscribe((c) => seen.push(c));
  return { bridge, seen };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => vi.useRealTimers());

describe('the HTTP bridge’s requests', () => {
  it('carry the token in the Authorization header, calls and event stream alike, and never credentials', async () => {
    const daemon = new FakeDaemon();
    const { bridge } = bridgeWith(daemon);
    await settle();
    await bridge.invoke('getStatus', {});
    expect(daemon.streams).toHaveLength(1);
    expect(daemon.latest.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(daemon.latest.credentials).toBe('omit');
    expect(daemon.calls.map((c) => [c.url, c.headers.get('authorization'), c.credentials])).toEqual([['/api/getStatus', `Bearer ${TOKEN}`, 'omit']]);
  });

  it('without a token send none, and the page learns that its session is over', async () => {
    const daemon = new FakeDaemon();
    daemon.eventsAnswer = 401;
    const { bridge } = bridgeWith(daemon, null);
    await settle();
    expect(bridge.connection.current()).toBe('expired');
    expect(daemon.fetch.mock.calls.every(([, init]) => !new Headers(init?.headers).has('authorization'))).toBe(true);
  });
});

describe('the HTTP bridge’s connection to the daemon', () => {
  it('is connected once the event stream opens, and passes its events on', async () => {
    const daemon = new FakeDaemon();
    const { bridge } = bridgeWith(daemon);
    const statuses: unknown[] = [];
    bridge.on('status', (s) => statuses.push(s));
    expect(bridge.connection.current()).toBe('connecting');
    await settle();
    expect(bridge.connection.current()).toBe('connected');
    daemon.latest.send('status', [status({ state: 'syncing' })]);
    daemon.latest.send('no-such-event', [1]);
    await settle();
    expect(statuses).toEqual([status({ state: 'syncing' })]);
    expect(daemon.streams).toHaveLength(1);
  });

  it('says the daemon is lost when the stream stays down, and connected again when it is back', async () => {
    const daemon = new FakeDaemon();
    const { bridge, seen } = bridgeWith(daemon);
    await settle();
    daemon.eventsAnswer = 'down';
    daemon.latest.drop();
    await settle();
    expect(bridge.connection.current()).toBe('connected');
    await vi.advanceTimersByTimeAsync(3000);
    expect(bridge.connection.current()).toBe('lost');
    // A few more tries fail, then the daemon answers again.
    await vi.advanceTimersByTimeAsync(10_000);
    daemon.eventsAnswer = null;
    await vi.advanceTimersByTimeAsync(30_000);
    await settle();
    expect(bridge.connection.current()).toBe('connected');
    expect(seen).toEqual(['connected', 'lost', 'connected']);
  });

  it('does not cry wolf over a stream that reconnects at once', async () => {
    const daemon = new FakeDaemon();
    const { bridge, seen } = bridgeWith(daemon);
    await settle();
    daemon.latest.drop();
    await settle();
    await vi.advanceTimersByTimeAsync(2000);
    await settle();
    expect(daemon.streams).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(bridge.connection.current()).toBe('connected');
    expect(seen).toEqual(['connected']);
  });

  it('says the daemon is lost as soon as a call finds nobody there', async () => {
    const daemon = new FakeDaemon();
    let up = false;
    daemon.callAnswer = () => {
      if (!up) throw new TypeError('Failed to fetch');
      return json(status());
    };
    const { bridge } = bridgeWith(daemon);
    await settle();
    await expect(bridge.invoke('getStatus', {})).rejects.toMatchObject({ code: 'unreachable', message: 'Asset Sync is not responding. Is it still running?' });
    expect(bridge.connection.current()).toBe('lost');
    up = true;
    await expect(bridge.invoke('getStatus', {})).resolves.toEqual(status());
    expect(bridge.connection.current()).toBe('connected');
  });

  it('opens a refused stream again later, and stops for good when the session has expired', async () => {
    const daemon = new FakeDaemon();
    const { bridge } = bridgeWith(daemon);
    await settle();
    daemon.eventsAnswer = 503;
    daemon.latest.drop();
    await settle();
    await vi.advanceTimersByTimeAsync(2000);
    await settle();
    expect(daemon.fetch.mock.calls.filter(([url]) => String(url).endsWith('/events'))).toHaveLength(2);
    daemon.eventsAnswer = null;
    await vi.advanceTimersByTimeAsync(4000);
    await settle();
    expect(daemon.streams).toHaveLength(2);
    expect(bridge.connection.current()).toBe('connected');

    // The daemon restarted with a new token: it no longer knows this page.
    daemon.eventsAnswer = 401;
    daemon.latest.drop();
    await settle();
    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    expect(bridge.connection.current()).toBe('expired');
    const tries = daemon.fetch.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(daemon.fetch.mock.calls.length).toBe(tries);
  });
});

describe('the page’s token', () => {
  function place(hash: string, stored: Record<string, string> = {}): TokenPlace & { shown: () => string; stored: Record<string, string> } {
    let url = `/${hash}`;
    const location = { hash, pathname: '/', search: '' };
    return {
      location,
      history: { state: null, replaceState: (_state: unknown, _unused: string, next?: string | URL | null) => void (url = String(next)) },
      storage: { getItem: (key) => stored[key] ?? null, setItem: (key, value) => void (stored[key] = value) },
      shown: () => url,
      stored,
    };
  }

  it('comes from the link’s fragment once, leaves the address bar and stays with the tab', () => {
    const first = place(`#token=${TOKEN}`);
    expect(takePageToken(first)).toBe(TOKEN);
    expect(first.shown()).toBe('/');
    expect(Object.values(first.stored)).toEqual([TOKEN]);
    // A reload: the address has no token any more, the tab's storage has it.
    const reload = place('', first.stored);
    expect(takePageToken(reload)).toBe(TOKEN);
  });

  it('is none for a page opened without the link, and lives in memory where storage is refused', () => {
    expect(takePageToken(place(''))).toBeNull();
    const refused = place(`#token=${TOKEN}`);
    refused.storage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(takePageToken(refused)).toBe(TOKEN);
    expect(refused.shown()).toBe('/');
  });
});
