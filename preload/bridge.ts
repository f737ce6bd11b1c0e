/**
 * The renderer's API over Electron IPC: `invoke` sends one call on the single invoke channel,
 * `on` listens to the single event channel for one of the contract's event names. Main answers
 * every call with `{ ok, value }` or `{ ok: false, error }`, so a failure reaches the renderer as
 * the BridgeError main chose (Electron would otherwise keep only a prefixed message).
 * Nothing else is reachable from the page: no ipcRenderer, no other channel, no IPC event object.
 */
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import type { AssetSyncBridge, BridgeError, Channel, RequestOf, Responses } from '../shared/ipc.js';
import { EVENT_NAMES, type EventName, type UiEvents } from '../shared/ui-events.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './channels.js';

type Envelope = { ok: true; value: unknown } | { ok: false; error: BridgeError };

const isEventName = (name: unknown): name is EventName => typeof name === 'string' && (EVENT_NAMES as readonly string[]).includes(name);

export function createIpcBridge(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>): AssetSyncBridge {
  return {
    async invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Responses[C]> {
      const answer = (await ipc.invoke(INVOKE_CHANNEL, channel, request)) as Envelope;
      if (answer.ok) return answer.value as Responses[C];
      // A plain { code, message } survives the context bridge whole; an Error would not.
      return Promise.reject({ code: answer.error.code, message: answer.error.message } satisfies BridgeError);
    },
    on<E extends EventName>(event: E, listener: (...args: UiEvents[E]) => void): () => void {
      if (!isEventName(event)) throw new Error(`unknown event "${String(event)}"`);
      const handler = (_event: IpcRendererEvent, name: unknown, ...args: unknown[]): void => {
        if (name === event) listener(...(args as UiEvents[E]));
      };
      ipc.on(EVENT_CHANNEL, handler);
      return () => {
        ipc.removeListener(EVENT_CHANNEL, handler);
      };
    },
  };
}
