/**
 * A small stand-in for the `electron` module (its binary cannot run in tests): just the parts
 * main/app/ and preload/ use, recording what they were asked to do. Use it with
 * `vi.mock('electron', () => import('../fakes/electron.js'))`; `resetElectron()` between tests.
 */
import { EventEmitter } from 'node:events';


/** An event as Electron passes it: preventDefault() marks it. */
export function fakeEvent<T extends object>(params: T): T & { preventDefault(): void; defaultPrevented: boolean } {
  const event = {
    ...params,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

export class FakeWebFrame {
  parent: FakeWebFrame | null = null;
  constructor(public url: string) {}
}

export class FakeWebContents extends EventEmitter {
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  readonly mainFrame = new FakeWebFrame('about:blank');
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  loading = false;

  /** As in Electron, the app hears of every web contents made: windows, popups, webviews. */
  constructor() {
    super();
    app.emit('web-contents-created', fakeEvent({}), this);
  }

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }

  isLoading(): boolean {
    return this.loading;
  }

  /** Whether a `<webview>` asked for by the page would attach: false when the app refused it. */
  attachWebview(): boolean {
    const event = fakeEvent({});
    this.emit('will-attach-webview', event, {}, {});
    return !event.defaultPrevented;
  }

  /** What a page's `will-navigate` to `url` ends as: true when the app let it happen. */
  navigate(url: string): boolean {
    const event = fakeEvent({ url, isMainFrame: true });
    this.emit('will-navigate', event, url);
    if (!event.defaultPrevented) this.mainFrame.url = url;
    return !event.defaultPrevented;
  }
}

export class BrowserWindow extends EventEmitter {
  static readonly instances: BrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  visible = false;
  destroyed = false;
  loadedUrl: string | null = null;

  constructor(readonly options: { webPreferences?: Record<string, unknown>; show?: boolean } & Record<string, unknown>) {
    super();
    BrowserWindow.instances.push(this);
  }

  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.webContents.mainFrame.url = url;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return false;
  }
  isVisible(): boolean {
    return this.visible;
  }
  restore(): void {}
  /** As Electron, `show` and `hide` tell the window's listeners. */
  show(): void {
    this.visible = true;
    this.emit('show');
  }
  hide(): void {
    this.visible = false;
    this.emit('hide');
  }
  focus(): void {}
}

export const ipcMain = {
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  },
  /** Calls the handler as `ipcRenderer.invoke` from `sender`'s `frame` would. */
  async invoke(channel: string, from: { sender: FakeWebContents; senderFrame: FakeWebFrame | null }, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(from, ...args);
  },
};

export class Notification extends EventEmitter {
  static readonly instances: Notification[] = [];
  static supported = true;
  static isSupported(): boolean {
    return Notification.supported;
  }
  shown = false;
  constructor(readonly options: { title: string; body: string }) {
    super();
    Notification.instances.push(this);
  }
  show(): void {
    this.shown = true;
  }
}

export interface FakeMenuItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  click?: () => void;
}

export const Menu = {
  buildFromTemplate(template: FakeMenuItem[]) {
    return { items: template };
  },
};

export class Tray extends EventEmitter {
  static readonly instances: Tray[] = [];
  tooltip = '';
  image: unknown;
  menu: { items: FakeMenuItem[] } | null = null;
  destroyed = false;
  constructor(image: unknown) {
    super();
    this.image = image;
    Tray.instances.push(this);
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setImage(image: unknown): void {
    this.image = image;
  }
  setContextMenu(menu: { items: FakeMenuItem[] }): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export const nativeImage = {
  createFromBitmap(buffer: Buffer, options: { width: number; height: number; scaleFactor?: number }) {
    return { kind: 'bitmap', buffer, ...options };
  },
};

export const shell = {
  opened: [] as string[],
  external: [] as string[],
  shown: [] as string[],
  async openPath(path: string): Promise<string> {
    this.opened.push(path);
    return '';
  },
  async openExternal(url: string): Promise<void> {
    this.external.push(url);
  },
  showItemInFolder(path: string): void {
    this.shown.push(path);
  },
};

export const dialog = {
  saveAnswer: { canceled: true, filePath: '' } as { canceled: boolean; filePath: string },
  async showSaveDialog(): Promise<{ canceled: boolean; filePath: string }> {
    return this.saveAnswer;
  },
  /** The button the user picks in the next message boxes (an index into `buttons`). */
  messageAnswer: 0,
  /** The options of every message box shown, in order. */
  messages: [] as Array<{ type?: string; message: string; detail?: string; buttons?: string[]; defaultId?: number; cancelId?: number }>,
  async showMessageBox(...args: unknown[]): Promise<{ response: number; checkboxChecked: boolean }> {
    // Electron takes (options) or (parentWindow, options).
    this.messages.push(args.at(-1) as (typeof this.messages)[number]);
    return { response: this.messageAnswer, checkboxChecked: false };
  },
  showErrorBox(): void {},
};

export const app = Object.assign(new EventEmitter(), {
  loginItem: { openAtLogin: false, args: [] as string[] },
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void {
    app.loginItem = { openAtLogin: settings.openAtLogin, args: settings.args ?? [] };
  },
  getLoginItemSettings() {
    return { ...app.loginItem, wasOpenedAtLogin: false };
  },
  getPath(): string {
    return '/downloads';
  },
  getAppPath(): string {
    return '/app';
  },
  isPackaged: false,
  requestSingleInstanceLock: (): boolean => true,
  whenReady: (): Promise<void> => Promise.resolve(),
  setAppUserModelId(): void {},
  /** As Electron: 'before-quit' may hold the quit back; if none does, 'will-quit' and 'quit' follow. */
  quit(): void {
    const event = fakeEvent({});
    app.emit('before-quit', event);
    if (event.defaultPrevented) return;
    app.emit('will-quit', fakeEvent({}));
    app.emit('quit', fakeEvent({}));
  },
  exit(): void {},
});

export const protocol = {
  schemes: [] as unknown[],
  handlers: new Map<string, (request: { url: string }) => unknown>(),
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    this.schemes.push(...schemes);
  },
  handle(scheme: string, handler: (request: { url: string }) => unknown): void {
    this.handlers.set(scheme, handler);
  },
};

export class FakeSession {
  permissionRequest: ((contents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void) | null = null;
  permissionCheck: ((contents: unknown, permission: string, origin: string, details: unknown) => boolean) | null = null;
  headersHook: ((details: { responseHeaders?: Record<string, string[]> }, callback: (answer: { responseHeaders?: Record<string, string[]> }) => void) => void) | null = null;
  readonly webRequest = {
    onHeadersReceived: (hook: FakeSession['headersHook']) => {
      this.headersHook = hook;
    },
  };
  setPermissionRequestHandler(handler: FakeSession['permissionRequest']): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheck']): void {
    this.permissionCheck = handler;
  }
}

export const session = { defaultSession: new FakeSession() };

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    this.exposed.set(key, api);
  },
};

export const ipcRenderer = Object.assign(new EventEmitter(), {
  invocations: [] as unknown[][],
  answer: (async () => ({ ok: true, value: null })) as (...args: unknown[]) => Promise<unknown>,
  invoke(...args: unknown[]): Promise<unknown> {
    ipcRenderer.invocations.push(args);
    return ipcRenderer.answer(...args);
  },
});

/** Forgets everything recorded, so each test starts from a fresh module state. */
export function resetElectron(): void {
  BrowserWindow.instances.length = 0;
  Notification.instances.length = 0;
  Notification.supported = true;
  Tray.instances.length = 0;
  ipcMain.handlers.clear();
  shell.opened.length = 0;
  shell.external.length = 0;
  shell.shown.length = 0;
  dialog.messageAnswer = 0;
  dialog.messages.length = 0;
  protocol.handlers.clear();
  protocol.schemes.length = 0;
  contextBridge.exposed.clear();
  ipcRenderer.removeAllListeners();
  ipcRenderer.invocations.length = 0;
  app.removeAllListeners();
  app.loginItem = { openAtLogin: false, args: [] };
  session.defaultSession = new FakeSession();
}

