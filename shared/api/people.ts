import type { User } from './resources.js';

/** How a person is named in lists and notifications: their name, else their email, else the fallback. */
export const personName = (user: User | null | undefined, fallback: string): string =>
  [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.email || user?.username || fallback;
