/**
 * The app's one window. The renderer gets no Node, runs sandboxed and isolated from the preload,
 * and only ever shows our origin (`lockEveryWebContents` in security.ts, applied by main.ts to
 * every web contents). Closing the window hides it: syncing goes on in the tray until the user quits.
 */
import { BrowserWindow, type WebPreferences } from 'electron';

export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  spellcheck: false,
} as const satisfies WebPreferences;

export interface MainWindowOptions {
  /** The bundled preload script (dist/app/preload/index.cjs). */
  preload: string;
  /** app://asset-sync/index.html, or the dev server. */
  url: string;
  /** Started at login: stay in the tray until asked. */
  startHidden: boolean;
}

export class MainWindow {
  private window: BrowserWindow | null = null;
  /** Set once the app quits: closing then really closes. */
  quitting = false;

  constructor(private readonly options: MainWindowOptions) {}

  /** The window if it exists (it may not, before the first show or after a quit). */
  get current(): BrowserWindow | null {
    return this.window && !this.window.isDestroyed() ? this.window : null;
  }

  /** Creates the window on first use. */
  open(): BrowserWindow {
    const existing = this.current;
    if (existing) return existing;
    const window = new BrowserWindow({
      width: 1100,
      height: 720,
      minWidth: 720,
      minHeight: 480,
      show: false,
      title: 'Asset Sync',
      autoHideMenuBar: true,
      webPreferences: { ...SECURE_WEB_PREFERENCES, preload: this.options.preload },
    });
    window.on('close', (event) => {
      if (this.quitting) return;
      event.preventDefault();
      window.hide();
    });
    window.once('ready-to-show', () => {
      if (!this.options.startHidden) window.show();
    });
    void window.loadURL(this.options.url);
    this.window = window;
    return window;
  }

  show(): void {
    const window = this.open();
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }
}
