/**
 * Runs jobs with at most `concurrency` in flight; a job may queue more jobs (a directory read
 * queues its children). Resolves when the queue is empty and nothing runs; rejects on the first
 * job error or on abort, starting nothing after that.
 */
export function runPool<T>(
  initial: Iterable<T>,
  concurrency: number,
  run: (job: T, enqueue: (job: T) => void) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const queue = [...initial];
  const enqueue = (job: T): void => void queue.push(job);
  return new Promise((resolve, reject) => {
    let active = 0;
    let failed = false;
    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      reject(err);
    };
    const pump = (): void => {
      if (failed) return;
      if (signal?.aborted) return fail(signal.reason);
      while (active < concurrency && queue.length > 0) {
        // LIFO keeps a tree walk depth-first, so the queue stays about as long as one folder.
        const job = queue.pop() as T;
        active++;
        run(job, enqueue).then(() => {
          active--;
          pump();
        }, fail);
      }
      if (active === 0 && queue.length === 0) resolve();
    };
    pump();
  });
}
