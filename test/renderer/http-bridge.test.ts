import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from '../../renderer/src/bridge/connection.js';
import { createHttpBridge } from '../../renderer/src/bridge/http-bridge.js';
import { status } from './fixtures.js';

/** An EventSource the test drives: open it, drop it, refuse it, push events through it. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;

  constructor(readonly url: string) {
    super();
    FakeEventSource.made.push(this);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  open(): void {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }

  /** The connection went away: the browser tries again by itself. */
  drop(): void {
    this.readyState = FakeEventSource.CONNECTING;
    this.dispatchEvent(new Event('error'));
  }

  /** The server answered with an error (a 401): the browser gives up on this stream. */
  refuse(): void {
    this.readyState = FakeEventSource.CLOSED;
    this.dispatchEvent(new Event('error'));
  }

  send(name: string, args: unknown[]): void {
    this.dispatchEvent(Object.assign(new Event(name), { data: JSON.stringify(args) }));
  }
}

const latest = () => FakeEventSource.made.at(-1) as FakeEventSource;
const json = (body: unknown, init: ResponseInit = {}) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' }, ...init });

function bridgeWith(fetchImpl: typeof fetch) {
  const bridge = createHttpBridge({ fetch: fetchImpl, EventSource: FakeEventSource as unknown as typeof EventSource });
  const seen: Connection[] = [];
  bridge.connection.subscribe((c) => seen.push(c));
  return { bridge, seen };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.made = [];
});
afterEach(() => vi.useRealTimers());

describe('the HTTP bridge’s connection to the daemon', () => {
  it('is connected once the event stream opens, and passes its events on', () => {
    const { bridge } = bridgeWith(vi.fn());
    const statuses: unknown[] = [];
    bridge.on('status', (s) => statuses.push(s));
    expect(bridge.connection.current()).toBe('connecting');
    latest().open();
    expect(bridge.connection.current()).toBe('connected');
    latest().send('status', [status({ state: 'syncing' })]);
    expect(statuses).toEqual([status({ state: 'syncing' })]);
    expect(FakeEventSource.made).toHaveLength(1);
  });

  it('says the daemon is lost when the stream stays down, and connected again when it is back', () => {
    const { bridge, seen } = bridgeWith(vi.fn());
    latest().open();
    latest().drop();
    expect(bridge.connection.current()).toBe('connected');
    vi.advanceTimersByTime(3000);
    expect(bridge.connection.current()).toBe('lost');
    // The browser's own retries fail a few more times, then the daemon answers again.
    latest().drop();
    vi.advanceTimersByTime(10_000);
    latest().open();
    expect(bridge.connection.current()).toBe('connected');
    expect(seen).toEqual(['connected', 'lost', 'connected']);
  });

  it('does not cry wolf over a stream that reconnects at once', () => {
    const { bridge, seen } = bridgeWith(vi.fn());
    latest().open();
    latest().drop();
    vi.advanceTimersByTime(1000);
    latest().open();
    vi.advanceTimersByTime(10_000);
    expect(bridge.connection.current()).toBe('connected');
    expect(seen).toEqual(['connected']);
  });

  it('says the daemon is lost as soon as a call finds nobody there', async () => {
    let up = false;
    const { bridge } = bridgeWith(vi.fn(async () => {
      if (!up) throw new TypeError('Failed to fetch');
      return json(status());
    }));
    latest().open();
    await expect(bridge.invoke('getStatus', {})).rejects.toMatchObject({ code: 'unreachable', message: 'Asset Sync is not responding. Is it still running?' });
    expect(bridge.connection.current()).toBe('lost');
    up = true;
    await expect(bridge.invoke('getStatus', {})).resolves.toEqual(status());
    expect(bridge.connection.current()).toBe('connected');
  });

  it('opens a refused stream again after asking why, and stops when the session has expired', async () => {
    let answer: () => Response = () => json(status());
    const { bridge } = bridgeWith(vi.fn(async () => answer()));
    latest().open();
    latest().refuse();
    await vi.advanceTimersByTimeAsync(2000);
    expect(FakeEventSource.made).toHaveLength(2);
    latest().open();
    expect(bridge.connection.current()).toBe('connected');

    answer = () => json({ code: 'unauthorized', message: 'This page’s session has expired.' }, { status: 401 });
    latest().refuse();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(bridge.connection.current()).toBe('expired');
    expect(FakeEventSource.made).toHaveLength(2);
  });
});
