/**
 * The index records of finished uploads that their actions do not wait for. An upload is done
 * once the service committed it; its base row and hash-cache entry go into a later group commit
 * (`commitLater`) with those of the uploads around it, instead of holding the action's place
 * until the end of its turn's commit. The plan waits for them before it goes past its run of
 * transfers, so a later action, and the next cycle, see them.
 *
 * A crash before that commit loses nothing: the next run finds the file and the remote version
 * equal by checksum and records them (no second upload, no second version).
 */
export interface LateRecordFailure {
  path: string;
  error: unknown;
}

export class LateRecords {
  private waiting = 0;
  private failures: LateRecordFailure[] = [];
  private onSettled: (() => void) | undefined;

  add(path: string, write: Promise<void>): void {
    this.waiting++;
    write
      .catch((error: unknown) => {
        this.failures.push({ path, error });
      })
      .finally(() => {
        this.waiting--;
        if (this.waiting === 0) this.onSettled?.();
      });
  }

  /** Commits what waits now (`commitNow`) and answers the records that failed once all have settled. */
  async settle(commitNow: () => void): Promise<LateRecordFailure[]> {
    if (this.waiting > 0) {
      const settled = new Promise<void>((resolve) => {
        this.onSettled = resolve;
      });
      commitNow();
      await settled;
      this.onSettled = undefined;
    }
    const failures = this.failures;
    this.failures = [];
    return failures;
  }
}
