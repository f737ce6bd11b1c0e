/**
 * Vitest setup file: the OS trash of every test process, and of every process a test starts
 * (the command line, the web UI server, the app's engine), is a folder of its own under the
 * temporary directory, never the user's. Local deletions and resolved conflicts go to the trash
 * (freedesktop layout, which the `trash` package follows through XDG_DATA_HOME); a test run must
 * not fill the trash of the person running it. Tests that look into that trash read the same
 * variable (test/helpers/engine.ts).
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const sandbox = join(tmpdir(), `asset-sync-test-trash-${process.pid}`);
process.env.XDG_DATA_HOME = sandbox;

afterAll(() => rmSync(sandbox, { recursive: true, force: true }));
