/**
 * The import rules eslint.config.js enforces inside main/: each one rejects a deliberate
 * violation in the files it covers and lets a legal import through, so a glob or pattern that
 * stops matching fails here rather than silently allowing the import.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The no-restricted-imports messages for `code` linted as if it were the file at `filePath`. */
async function restricted(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const importing = (specifier: string): string => `import * as m from '${specifier}';\nexport const used = m;\n`;

const PLANNER_FILES = [
  'main/sync/planner/plan.ts', 'main/sync/planner/file-moves.ts', 'main/sync/planner/folder-plan.ts',
  'main/sync/planner/effects.ts', 'main/sync/planner/brake.ts', 'main/sync/planner/order.ts',
  'main/sync/planner/folder-case.ts', 'main/sync/planner/folder-moves.ts', 'main/sync/planner/a-new-helper.ts',
];

describe('the planner is pure', () => {
  it.each(PLANNER_FILES)('%s imports no Node module', async (file) => {
    for (const specifier of ['node:fs', 'node:path', 'path', 'fs/promises']) {
      expect(await restricted(importing(specifier), file)).toEqual([expect.stringContaining('no Node modules')]);
    }
  });

  it.each(PLANNER_FILES)('%s imports nothing from the executor or the engine', async (file) => {
    for (const specifier of ['../executor/disk.js', '../executor/index.js', '../../sync/executor/index.js', '../../engine/engine.js', '../../engine/workspace-sync.js']) {
      expect(await restricted(importing(specifier), file)).toEqual([expect.stringContaining('nothing from the executor or the engine')]);
    }
    const reexport = "export { ExecutorError } from '../executor/failures.js';\n";
    expect(await restricted(reexport, file)).toEqual([expect.stringContaining('nothing from the executor or the engine')]);
  });

  it.each(PLANNER_FILES)('%s may import its own helpers, the views and the path rules', async (file) => {
    for (const specifier of ['./order.js', '../actions.js', '../rel-path.js', '../conflict-name.js', '../../model/views.js', '../../local/paths.js']) {
      expect(await restricted(importing(specifier), file)).toEqual([]);
    }
  });

  it('the runtime code of sync/ is not held to it', async () => {
    expect(await restricted(importing('node:fs'), 'main/sync/transfer-queue.ts')).toEqual([]);
    expect(await restricted(importing('../disk.js'), 'main/sync/executor/download.ts')).toEqual([]);
  });
});

describe('main/local/ and main/index/ import nothing from main/sync/', () => {
  const files = ['main/local/scanner.ts', 'main/index/base-state.ts', 'main/index/remote-state.ts'];

  it.each(files)('%s rejects an import, a type import and a re-export from sync/', async (file) => {
    const rejected = [
      importing('../sync/actions.js'),
      "import type { Action } from '../sync/actions.js';\nexport type A = Action;\n",
      "export * from '../sync/rel-path.js';\n",
    ];
    for (const code of rejected) {
      expect(await restricted(code, file)).toEqual([expect.stringContaining('nothing from main/sync/')]);
    }
  });

  it.each(files)('%s may import the views from main/model/ and its own folder', async (file) => {
    expect(await restricted(importing('../model/views.js'), file)).toEqual([]);
    expect(await restricted(importing('./paths.js'), file)).toEqual([]);
  });

  it.each(files)('%s rejects an import from engine/, which runs above it', async (file) => {
    expect(await restricted(importing('../engine/status.js'), file)).toEqual([expect.stringContaining('nothing from main/sync/ or main/engine/')]);
  });

  it('the engine may import sync/', async () => {
    expect(await restricted(importing('../sync/actions.js'), 'main/engine/workspace-sync.ts')).toEqual([]);
  });
});

describe('main/sync/ imports nothing from main/engine/', () => {
  const files = ['main/sync/transfer-queue.ts', 'main/sync/executor/download.ts', 'main/sync/executor/index.ts', 'main/sync/a-new-helper.ts'];

  it.each(files)('%s rejects an import and a type import from engine/', async (file) => {
    const depth = file.split('/').length - 2;
    const up = '../'.repeat(depth);
    for (const code of [importing(`${up}engine/status.js`), `import type { SyncEngine } from '${up}engine/engine.js';\nexport type E = SyncEngine;\n`]) {
      expect(await restricted(code, file)).toEqual([expect.stringContaining('nothing from main/engine/')]);
    }
  });

  it.each(files)('%s may import index/, local/ and the rest of sync/', async (file) => {
    const up = '../'.repeat(file.split('/').length - 2);
    for (const specifier of [`${up}index/sync-index.js`, `${up}local/paths.js`, `${up}sync/actions.js`]) {
      expect(await restricted(importing(specifier), file)).toEqual([]);
    }
  });
});

describe('main/model/ imports nothing of the project', () => {
  it('rejects a relative import and allows a package', async () => {
    expect(await restricted(importing('../local/paths.js'), 'main/model/views.ts')).toEqual([expect.stringContaining('imports nothing of the project')]);
    expect(await restricted(importing('./other.js'), 'main/model/views.ts')).toEqual([expect.stringContaining('imports nothing of the project')]);
    expect(await restricted(importing('zod'), 'main/model/views.ts')).toEqual([]);
  });
});

describe('outside main/sync/, the executor is used through its public surface only', () => {
  const files = ['main/engine/engine.ts', 'main/engine/workspace-sync.ts', 'main/engine/status.ts', 'main/engine/a-new-room.ts', 'main/cli/status.ts', 'main/app-api/conflicts.ts'];

  it.each(files)('%s rejects an import, a type import and a re-export of an executor internal', async (file) => {
    const rejected = [
      importing('../sync/executor/offline.js'),
      importing('../sync/executor/execute-plan.js'),
      "import type { ExecutorDeps } from '../sync/executor/context.js';\nexport type D = ExecutorDeps;\n",
      "export { stillOpen } from '../sync/executor/open-conflicts.js';\n",
    ];
    for (const code of rejected) {
      expect(await restricted(code, file)).toEqual([expect.stringContaining("the executor's public surface")]);
    }
  });

  it.each(files)('%s may import the executor\'s index and the rest of sync/', async (file) => {
    for (const specifier of ['../sync/executor/index.js', '../sync/actions.js', '../sync/planner/plan.js', '../sync/transfer-queue.js']) {
      expect(await restricted(importing(specifier), file)).toEqual([]);
    }
  });

  it('the executor\'s own files may import each other', async () => {
    expect(await restricted(importing('./offline.js'), 'main/sync/executor/execute-plan.ts')).toEqual([]);
    expect(await restricted(importing('./context.js'), 'main/sync/executor/index.ts')).toEqual([]);
  });
});
