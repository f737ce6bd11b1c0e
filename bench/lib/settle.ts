/**
 * The state every timed run starts from: no dirty pages left by the run before, and no memory
 * freed by it still at hand.
 *
 * The second matters on a VM whose balloon device reports free pages to the hypervisor
 * (virtio-balloon with VIRTIO_BALLOON_F_REPORTING, as on this machine). A page freed less than a
 * second ago is still backed by the host, and the page cache fills it about ten times faster
 * than one that has gone back, which faults on the host first. Measured here:
 * - `dd` of 2 GiB into the page cache right after removing a 2 GiB file: 0.56–0.60 s; 1 s
 *   after: 1.4–2.6 s; 8 s after: 4.3–5.7 s; 10–30 s after, or with nothing removed: 5.3–6.3 s.
 * - `curl -o` of a 2 GiB signed URL: 3.1–3.4 s right after removing 2 GiB; 4.3–9.0 s into
 *   memory unused for long.
 * A tool that starts within milliseconds of the previous run's cleanup (curl) got the fast
 * pages, and one that takes a moment to start (a Node process) the slow ones. Waiting removes
 * that head start; the host's own variance stays, which is why runs alternate and medians count.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { run } from './proc.js';

/** How long freed memory takes to go back to the host, with a margin (see above). */
const REPORTED_AFTER_MS = 10_000;

let waitMs = REPORTED_AFTER_MS;

/**
 * A shorter wait for `--quick`: its files are a few MiB, too few for the head start to show,
 * and ten seconds before each of its ~60 runs made a smoke run of 2 minutes take 12.
 */
export function settleBriefly(): void {
  waitMs = 1_000;
}

/** The virtio device id of a memory balloon, and the feature bit of free page reporting. */
const BALLOON_DEVICE = '0x0005';
const F_REPORTING = 5;

let reporting: Promise<boolean> | undefined;

/** Whether this machine hands freed pages back to its hypervisor (read once from sysfs). */
function reportsFreePages(): Promise<boolean> {
  reporting ??= (async () => {
    const root = '/sys/bus/virtio/devices';
    const devices = await readdir(root).catch(() => [] as string[]);
    for (const device of devices) {
      const id = await readFile(join(root, device, 'device'), 'utf8').catch(() => '');
      if (id.trim() !== BALLOON_DEVICE) continue;
      const features = await readFile(join(root, device, 'features'), 'utf8').catch(() => '');
      if (features[F_REPORTING] === '1') return true;
    }
    return false;
  })();
  return reporting;
}

/**
 * Call right before each timed run: writes every dirty page to disk (a 2 GiB download left in
 * the page cache slowed the next run by half), then, where freed pages go back to the host,
 * waits until they have, so every tool fills the page cache at the same cost.
 */
export async function settleMachine(): Promise<void> {
  await run('sync', []);
  if (await reportsFreePages()) await sleep(waitMs);
}
