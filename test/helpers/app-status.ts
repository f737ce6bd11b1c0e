import type { EngineStatus } from '../../shared/engine.js';
import type { AppApi } from '../../main/app-api/index.js';

/** The app's status once `done` holds: now, or at the status event that makes it so. */
export function statusWhen(api: AppApi, done: (status: EngineStatus) => boolean): Promise<EngineStatus> {
  return new Promise((resolve) => {
    const check = (status: EngineStatus) => {
      if (!done(status)) return;
      api.off('status', check);
      resolve(status);
    };
    api.on('status', check);
    check(api.status());
  });
}
