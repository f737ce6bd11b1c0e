/**
 * Runs a poll again and again, each one `delayMs()` after the start of the one before, the delay
 * asked for anew each time (poll-cadence.ts decides it). A poll never overlaps the one before.
 * When what the delay depends on changes (a window opens, the interval is set), `reschedule`
 * moves the waiting poll: opening the app after an idle half-minute polls at once.
 */
export class PollTimer {
  private timer: NodeJS.Timeout | undefined;
  private lastAt = 0;
  private running = false;
  private stopped = true;

  constructor(
    private readonly delayMs: () => number,
    private readonly poll: () => Promise<void>,
  ) {}

  /** Starts polling: at once, or after one delay. */
  start(options: { now: boolean }): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.lastAt = Date.now();
    if (options.now) void this.run();
    else this.schedule();
  }

  reschedule(): void {
    if (this.stopped || this.running) return;
    clearTimeout(this.timer);
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const wait = Math.max(0, this.lastAt + this.delayMs() - Date.now());
    this.timer = setTimeout(() => void this.run(), wait);
  }

  private async run(): Promise<void> {
    this.running = true;
    this.lastAt = Date.now();
    try {
      // A poll reports its own failures: one that throws all the same (the index closed under
      // it as the session ends) must not end the process, nor the polling.
      await this.poll().catch(() => undefined);
    } finally {
      this.running = false;
      if (!this.stopped) this.schedule();
    }
  }
}
