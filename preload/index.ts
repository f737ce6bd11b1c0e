/**
 * The preload script (sandboxed, bundled to one CommonJS file by `npm run build:app`): exposes
 * `window.assetSync`, the typed bridge, and nothing else.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createIpcBridge } from './bridge.js';

contextBridge.exposeInMainWorld('assetSync', createIpcBridge(ipcRenderer));
