import type { OpenOutcome } from '../../../shared/ipc.js';

/**
 * Opens a file through the bridge with the user's consent for programs and scripts. Where main
 * answers a question instead of opening (the headless UI: the desktop app asks with a dialog of
 * its own), the page puts it to the user and, on a yes, sends the same request again saying so.
 * Answers the last outcome: opened, or not (the user said no).
 */
export async function openWithConsent<T extends OpenOutcome>(send: (runConfirmed: boolean) => Promise<T>, ask: (question: string) => boolean = (q) => window.confirm(q)): Promise<T> {
  const first = await send(false);
  if (first.opened || !first.confirm || !ask(first.confirm.question)) return first;
  return send(true);
}
