/**
 * The app lets go of a session (another sync folder, a sign-out) while pictures made ahead of need
 * wait for its busy sync: the media service must stop asking that session's engine, whose index
 * is closed by then. Asking it threw out of the background loop and ended the whole process.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import type { ActivityItem } from '../../shared/engine.js';
import { MediaService, type MediaSessionWithEngine } from '../../main/media/index.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

it('stops waiting on a session the app has let go of, without asking its closed engine', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'media-switch-'));
  dirs.push(dir);
  const media = new MediaService({ dir });
  let closed = false;
  let asked = 0;
  const engine = Object.assign(new EventEmitter(), {
    status: () => {
      asked += 1;
      if (closed) throw new TypeError('The database connection is not open');
      return { state: 'syncing' as const, workspaces: [] };
    },
  });
  // Only the engine is reached while the sync is busy; the index and client are never touched.
  media.use({ engine } as unknown as MediaSessionWithEngine);
  const item = { kind: 'downloaded', workspaceId: 'w', path: 'a.png' } as ActivityItem;
  engine.emit('activity', item);
  await delay(400);
  expect(asked).toBeGreaterThan(0);
  media.use(null);
  closed = true;
  const before = asked;
  await delay(600);
  expect(asked).toBe(before);
  await media.close();
});
