/**
 * The tray icon: its badge and tooltip say the engine's state at a glance (up to date, syncing
 * with progress, paused, offline, needs attention); its menu opens the sync folder or the app,
 * pauses or resumes, and quits.
 */
import { Menu, Tray, nativeImage, type NativeImage } from 'electron';
import { conflictsWaiting, type EngineStatus, type SyncState } from '../../shared/engine.js';
import type { AppApi } from '../app-api/index.js';
import { badgePixels, type TrayIcon } from './tray-icons.js';

const PROGRESS_INTERVAL_MS = 1000;

export interface TrayView {
  icon: TrayIcon;
  tooltip: string;
  /** The menu's status line. */
  label: string;
}

const ICON_OF: Record<SyncState, TrayIcon> = {
  starting: 'syncing',
  scanning: 'syncing',
  listing: 'syncing',
  syncing: 'syncing',
  'up-to-date': 'up-to-date',
  paused: 'paused',
  stopped: 'paused',
  offline: 'offline',
  attention: 'attention',
};

/** Bytes moved out of bytes to move, over transfers not yet finished; null when nothing moves. */
export function progressPercent(status: EngineStatus): number | null {
  const moving = status.transfers.filter((t) => t.state === 'queued' || t.state === 'active');
  const total = moving.reduce((n, t) => n + t.bytesTotal, 0);
  if (total === 0) return null;
  return Math.min(99, Math.floor((moving.reduce((n, t) => n + t.bytesDone, 0) / total) * 100));
}

export function trayView(status: EngineStatus): TrayView {
  const icon = status.paused ? 'paused' : ICON_OF[status.state];
  const problems = status.workspaces.reduce((n, w) => n + w.problems.length, 0);
  let label: string;
  switch (status.paused ? 'paused' : status.state) {
    case 'up-to-date':
      label = 'Up to date';
      break;
    case 'paused': {
      const waiting = status.workspaces.reduce((n, w) => n + (w.pausedChanges ?? 0), 0);
      label = waiting > 0 ? `Paused · ${waiting} change${waiting === 1 ? '' : 's'} waiting` : 'Paused';
      break;
    }
    case 'stopped':
      label = 'Not syncing';
      break;
    case 'offline':
      label = 'Offline: waiting for the service';
      break;
    case 'attention':
      label = conflictsWaiting(status.workspaces.flatMap((w) => w.problems)) ?? `Needs your attention${problems > 0 ? ` (${problems} problem${problems === 1 ? '' : 's'})` : ''}`;
      break;
    default: {
      const percent = progressPercent(status);
      label = percent === null ? 'Syncing…' : `Syncing ${percent}%`;
    }
  }
  return { icon, tooltip: `Asset Sync: ${label}`, label };
}

export interface TrayActions {
  openWindow(): void;
  openSyncFolder(): void;
  quit(): void;
}

export class AppTray {
  private readonly tray: Tray;
  private readonly images = new Map<TrayIcon, NativeImage>();
  private shown: { icon: TrayIcon; label: string; paused: boolean } | null = null;
  private readonly onStatus = (status: EngineStatus) => this.update(status);
  private progressTimer: NodeJS.Timeout | null = null;
  /** Transfers report many times a second: the tooltip's percentage follows once a second. */
  private readonly onTransfer = () => {
    this.progressTimer ??= setTimeout(() => {
      this.progressTimer = null;
      this.update(this.api.status());
    }, PROGRESS_INTERVAL_MS);
  };

  constructor(
    private readonly api: AppApi,
    private readonly actions: TrayActions,
  ) {
    this.tray = new Tray(this.image('syncing'));
    this.tray.on('click', () => actions.openWindow());
    api.on('status', this.onStatus);
    api.on('transfer', this.onTransfer);
    this.update(api.status());
  }

  update(status: EngineStatus): void {
    const view = trayView(status);
    this.tray.setToolTip(view.tooltip);
    const shown = this.shown;
    if (shown && shown.icon === view.icon && shown.label === view.label && shown.paused === status.paused) return;
    if (shown?.icon !== view.icon) this.tray.setImage(this.image(view.icon));
    this.tray.setContextMenu(this.menu(view, status.paused));
    this.shown = { icon: view.icon, label: view.label, paused: status.paused };
  }

  destroy(): void {
    this.api.off('status', this.onStatus);
    this.api.off('transfer', this.onTransfer);
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.tray.destroy();
  }

  private menu(view: TrayView, paused: boolean): Menu {
    const toggle = paused ? 'resume' : 'pause';
    return Menu.buildFromTemplate([
      { label: view.label, enabled: false },
      { type: 'separator' },
      { label: 'Open Asset Sync', click: () => this.actions.openWindow() },
      { label: 'Open sync folder', click: () => this.actions.openSyncFolder() },
      { type: 'separator' },
      { label: paused ? 'Resume syncing' : 'Pause syncing', click: () => void this.api.handle(toggle, {}).catch(() => undefined) },
      { type: 'separator' },
      { label: 'Quit Asset Sync', click: () => this.actions.quit() },
    ]);
  }

  private image(icon: TrayIcon): NativeImage {
    let image = this.images.get(icon);
    if (!image) {
      // Drawn at twice the size, for sharp badges on high-density screens.
      image = nativeImage.createFromBitmap(badgePixels(icon, 32), { width: 32, height: 32, scaleFactor: 2 });
      this.images.set(icon, image);
    }
    return image;
  }
}
