/**
 * Desktop notifications for what needs the user: a review or change request, a conflict, and
 * the problems that stop syncing until the user acts (sign-in, missing folder marker, the
 * mass-deletion brake); and a lock released on a file that was read-only here, so whoever waited
 * to edit it knows they can. Clicking one shows the window at the right place: a request opens on
 * that request, a conflict on its two sides. Each problem is told once per run: the engine
 * reports it again every cycle until it is solved.
 */
import { Notification } from 'electron';
import { reviewTitle, type ActivityItem, type Problem, type ProblemKind, type ReviewNotification } from '../../shared/engine.js';
import type { UiEvents } from '../../shared/ipc.js';
import type { AppApi } from '../app-api/index.js';

type Target = UiEvents['navigate'][0];

interface Notice {
  title: string;
  body: string;
  target: Target;
}

export function reviewNotice(item: ReviewNotification): Notice {
  return {
    title: reviewTitle(item),
    body: item.message,
    target: { view: 'reviews', assetId: item.assetId, reviewKey: item.remoteKey, ...(item.workspaceId ? { workspaceId: item.workspaceId } : {}) },
  };
}

/** The notice for an activity line worth interrupting for: a lock released on a file here. */
export function activityNotice(item: ActivityItem): Notice | null {
  if (item.kind !== 'unlocked' || item.path === null) return null;
  const name = item.path.slice(item.path.lastIndexOf('/') + 1);
  const slash = item.path.lastIndexOf('/');
  return {
    title: `${name} is unlocked`,
    body: item.message,
    target: { view: 'files', workspaceId: item.workspaceId, path: slash < 0 ? '' : item.path.slice(0, slash) },
  };
}

const PROBLEM_TITLES: Partial<Record<ProblemKind, string>> = {
  conflict: 'Conflicting edits',
  auth: 'Sign in to Asset Sync again',
  marker: 'A sync folder is missing',
  brake: 'Syncing paused: many files were deleted',
};

/** The notice for a problem that needs the user, or null for those Asset Sync handles itself. */
export function problemNotice(problem: Problem): Notice | null {
  const title = PROBLEM_TITLES[problem.kind];
  if (!title) return null;
  const where = problem.path ? `${problem.path}: ` : '';
  let target: Target;
  if (problem.kind === 'auth') target = { view: 'settings' };
  else if (problem.kind === 'conflict' && problem.path) target = { view: 'conflicts', workspaceId: problem.workspaceId, path: problem.path };
  else target = { view: 'status', workspaceId: problem.workspaceId };
  return { title, body: `${where}${problem.message}${problem.hint ? ` ${problem.hint}` : ''}`, target };
}

export interface NotifierOptions {
  api: AppApi;
  showWindow(): void;
}

/** Starts notifying; returns what stops it. */
export function startNotifications({ api, showWindow }: NotifierOptions): () => void {
  const told = new Set<string>();
  // A notification that is garbage-collected loses its click handler: keep each until it is done.
  const live = new Set<Notification>();
  const notify = (notice: Notice): void => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title: notice.title, body: notice.body });
    live.add(notification);
    notification.on('click', () => {
      live.delete(notification);
      showWindow();
      api.navigate(notice.target);
    });
    notification.on('close', () => live.delete(notification));
    notification.show();
  };
  const onReview = (item: ReviewNotification) => notify(reviewNotice(item));
  const onProblem = (problem: Problem) => {
    const notice = problemNotice(problem);
    const key = `${problem.kind}\n${problem.workspaceId}\n${problem.path ?? ''}\n${problem.message}`;
    if (!notice || told.has(key)) return;
    told.add(key);
    notify(notice);
  };
  const onActivity = (item: ActivityItem) => {
    const notice = activityNotice(item);
    if (notice) notify(notice);
  };
  api.on('review', onReview);
  api.on('problem', onProblem);
  api.on('activity', onActivity);
  return () => {
    api.off('review', onReview);
    api.off('problem', onProblem);
    api.off('activity', onActivity);
    live.clear();
  };
}
