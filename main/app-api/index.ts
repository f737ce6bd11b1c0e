export { AppApi, type AppApiOptions, type BridgeResult, type SignInTarget } from './app-api.js';
export { AppError, toBridgeError } from './bridge-errors.js';
export type { AppHooks } from './hooks.js';
export type { AppSession, SessionOpener } from './session.js';
