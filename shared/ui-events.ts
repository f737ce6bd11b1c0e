/**
 * The events main pushes to the renderer, apart from the request schemas in ipc.ts, so that the
 * preload and the renderer can list them without bundling zod.
 */
import type { EngineEvents } from './engine.js';

/** Events main pushes to the renderer: the engine's, plus a request to show one asset. */
export interface UiEvents extends EngineEvents {
  /** `reviewKey`: the review or change request to show (its `remoteKey`). */
  navigate: [{ view: 'status' | 'files' | 'versions' | 'reviews' | 'conflicts' | 'settings'; workspaceId?: string; path?: string; assetId?: string; reviewKey?: string }];
}
export type EventName = keyof UiEvents;
export const EVENT_NAMES: readonly EventName[] = ['status', 'transfer', 'activity', 'problem', 'review', 'navigate'];
