/**
 * The Electron main process as built (dist/node/app.js): source maps on, so a stack trace in the
 * log names the TypeScript file and line, then the app. They apply only to modules loaded after
 * they are enabled, hence the import here. Awaited, as Electron asks of an ES module entry: what
 * main.ts must do before the app's `ready` event (register its scheme) then happens before it.
 */
process.setSourceMapsEnabled(true);
await import('./main.js');
