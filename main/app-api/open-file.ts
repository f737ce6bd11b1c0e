/**
 * Opening a synced file or a copy of a version with the desktop's default application, and
 * asking first when that would run code (runnable-types.ts). The desktop app asks with its own
 * dialog (`AppHooks.confirmOpen`), which a page cannot answer for the user; the headless UI
 * answers the page a question (`OpenOutcome.confirm`) and opens only once the page sends the
 * user's yes.
 */
import type { OpenConfirmation, OpenOutcome } from '../../shared/ipc.js';
import type { AppHooks } from './hooks.js';
import { isRunnableName } from './runnable-types.js';

export interface OpenTarget {
  /** The name the user knows it by. */
  name: string;
  /** Who made the version, asked only when the file runs code; null: not known. */
  uploadedBy: () => Promise<string | null>;
}

export function openQuestion(name: string, uploadedBy: string | null): string {
  const from = uploadedBy ? `, and its version is from ${uploadedBy}` : '';
  return `“${name}” is a program or a script${from}. Opening it runs it on this computer, with your permissions. Open it only if you expected it and trust where it comes from.`;
}

/**
 * Whether the file may be opened: null when it may (it runs no code, or the user said yes);
 * otherwise what to answer instead. Asked before anything is downloaded for it.
 */
export async function refusalToOpen(hooks: AppHooks, target: OpenTarget, runConfirmed: boolean): Promise<OpenOutcome | null> {
  if (!isRunnableName(target.name)) return null;
  const uploadedBy = await target.uploadedBy().catch(() => null);
  const confirm: OpenConfirmation = { name: target.name, uploadedBy, question: openQuestion(target.name, uploadedBy) };
  if (hooks.confirmOpen) return (await hooks.confirmOpen(confirm)) ? null : { opened: false };
  return runConfirmed ? null : { opened: false, confirm };
}

/** Opens a file already on this computer, once `refusalToOpen` allows it. */
export async function openChecked(hooks: AppHooks, absPath: string, target: OpenTarget, runConfirmed: boolean): Promise<OpenOutcome> {
  const refused = await refusalToOpen(hooks, target, runConfirmed);
  if (refused) return refused;
  await hooks.openPath(absPath);
  return { opened: true };
}
