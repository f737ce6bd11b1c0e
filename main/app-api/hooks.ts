/**
 * What the app needs from the desktop it runs on. Electron implements these with `shell`,
 * `dialog` and `app`; the headless UI server with the platform's opener and the Downloads folder.
 * Injected, so one AppApi serves both hosts and tests see what would have been opened.
 */
import type { OpenConfirmation } from '../../shared/ipc.js';

export interface AppHooks {
  /** Opens a file or folder with the user's default application. */
  openPath(absPath: string): Promise<void>;
  /**
   * Asks the user, in a dialog of the desktop's own, whether to open a program or script; true:
   * open it. Absent where only the page can ask (the headless UI): the page then confirms.
   */
  confirmOpen?(confirmation: OpenConfirmation): Promise<boolean>;
  /** Shows the file selected in the system's file manager. */
  showItemInFolder(absPath: string): Promise<void>;
  /** Asks where to save a copy; null when the user cancels. */
  chooseSavePath(suggestedName: string): Promise<string | null>;
  /** Starts Asset Sync when the user logs in (or stops doing so). */
  setLoginItem(enabled: boolean): Promise<void>;
}
