/**
 * An in-memory stand-in for the transport interface (AssetSyncBridge) the renderer talks to:
 * answers come from per-channel handlers, events are pushed with emit(). Component tests only;
 * the real transports are covered end to end (test/e2e/ui.e2e.test.ts).
 */
import { act } from '@testing-library/react';
import type { AssetSyncBridge, Channel, EventName, RequestOf, Responses, UiEvents } from '../../shared/ipc.js';
import type { Connection, ConnectionWatch } from '../../renderer/src/bridge/connection.js';

export type Handlers = { [C in Channel]?: (request: RequestOf<C>) => Responses[C] | Promise<Responses[C]> };

type Listener = (...args: unknown[]) => void;

export class MemoryBridge implements AssetSyncBridge {
  readonly calls: Array<{ channel: Channel; request: unknown }> = [];
  private readonly listeners = new Map<EventName, Set<Listener>>();

  constructor(public handlers: Handlers = {}) {}

  invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Responses[C]> {
    this.calls.push({ channel, request });
    const handler = this.handlers[channel] as ((request: RequestOf<C>) => Responses[C] | Promise<Responses[C]>) | undefined;
    if (!handler) return Promise.reject(new Error(`No answer for ${channel} in this test`));
    return Promise.resolve().then(() => handler(request));
  }

  on<E extends EventName>(event: E, listener: (...args: UiEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const loose = listener as unknown as Listener;
    set.add(loose);
    return () => set.delete(loose);
  }

  /** Pushes an event as main would, inside act() so React has rendered when it returns. */
  emit<E extends EventName>(event: E, ...args: UiEvents[E]): void {
    act(() => this.send(event, ...args));
  }

  /** Pushes an event outside React (store tests). */
  send<E extends EventName>(event: E, ...args: UiEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  requestsTo<C extends Channel>(channel: C): Array<RequestOf<C>> {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.request as RequestOf<C>);
  }
}

/** The HTTP transport's connection watch, set by the test. */
export class MemoryConnection implements ConnectionWatch {
  private readonly watchers = new Set<(connection: Connection) => void>();

  constructor(private connection: Connection = 'connected') {}

  current(): Connection {
    return this.connection;
  }

  subscribe(watcher: (connection: Connection) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Changes the connection inside act() so React has rendered when it returns. */
  set(connection: Connection): void {
    act(() => {
      this.connection = connection;
      for (const watcher of this.watchers) watcher(connection);
    });
  }
}

/** An answer that never comes: the screen stays in its loading state. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}
