/**
 * The main side of the bridge: one handler for every call, one channel for every event. A call
 * is served only when it comes from the main frame of our window showing our origin
 * (GitHub Desktop's trusted-ipc-sender): a frame that navigated elsewhere, an iframe or another
 * web contents gets a refusal, and its request is never looked at.
 */
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import { EVENT_NAMES } from '../../shared/ipc.js';
import type { AppApi, BridgeResult } from '../app-api/index.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../preload/channels.js';
import { originOf } from './origin.js';

export function isTrustedSender(event: IpcMainInvokeEvent, window: BrowserWindow | null, origin: string): boolean {
  if (!window || window.isDestroyed() || event.sender !== window.webContents) return false;
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return originOf(frame.url) === origin;
}

const UNTRUSTED: BridgeResult = { ok: false, error: { code: 'forbidden', message: 'This page may not use Asset Sync.' } };

/** Registers the invoke handler; returns what removes it. */
export function registerIpc(ipcMain: IpcMain, api: AppApi, window: () => BrowserWindow | null, origin: string): () => void {
  ipcMain.handle(INVOKE_CHANNEL, async (event, channel: unknown, request: unknown): Promise<BridgeResult> => {
    if (!isTrustedSender(event, window(), origin)) return UNTRUSTED;
    return api.invoke(String(channel), request);
  });
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}

/** Sends every UiEvent to the window (when it exists); returns what stops it. */
export function forwardEvents(api: AppApi, window: () => BrowserWindow | null): () => void {
  const offs = EVENT_NAMES.map((name) => {
    const listener = (...args: unknown[]) => {
      const target = window();
      if (target && !target.isDestroyed()) target.webContents.send(EVENT_CHANNEL, name, ...args);
    };
    api.on(name, listener as never);
    return () => api.off(name, listener as never);
  });
  return () => offs.forEach((off) => off());
}
