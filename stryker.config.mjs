// @ts-check
/**
 * Mutation testing (StrykerJS) of the modules that keep users safe: `npm run test:mutation`
 * (scripts/test-mutation.sh, which also mounts a disk without hard links where it can).
 * Each group names the code it mutates and the tests that guard it; a mutant runs only the
 * tests that reached it (`coverageAnalysis: 'perTest'`), so a group costs minutes, not hours.
 * MUTATION_GROUP=names (or a comma list) runs some groups; all run by default.
 *
 * Only tests that run the production code in the test's own process can kill a mutant: a
 * mutant is switched on through a global of that process, so code run by the CLI in a child
 * process or by a worker thread is never mutated.
 */

import { readFileSync } from 'node:fs';

/**
 * `file:a-b` for the lines from the first holding `from` to the first after it holding `to`. A
 * range given by the code it starts and ends at follows that code when lines above it move; one
 * given by numbers drifts onto other code without a word. The config refuses to load once an
 * anchor's text is gone.
 * @param {string} file
 * @param {string} from
 * @param {string} to
 */
function span(file, from, to) {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  // Stryker's test-runner processes load this config again inside its sandbox, where the sources
  // are instrumented and the anchors' text is gone; they do not read `mutate`.
  if (text.includes('stryMutAct_')) return file;
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.includes(from));
  const end = start < 0 ? -1 : lines.findIndex((line, i) => i >= start && line.includes(to));
  if (start < 0 || end < 0) throw new Error(`stryker.config.mjs: ${file} no longer holds "${start < 0 ? from : to}": point the range at the code it guards`);
  return `${file}:${start + 1}-${end + 1}`;
}

/** @typedef {{ mutate: string[], testFiles: string[] }} Group */
/** @type {Record<string, Group | undefined>} */
export const GROUPS = {
  // Path containment and the safe names given to what the service lists.
  names: {
    mutate: [
      'main/local/paths.ts',
      'main/sync/rel-path.ts',
      // The symlink check before every write: folders known inside the root, swapped ones refused.
      'main/local/writable-folders.ts',
      // writablePath and ensureParent: every write of the executor goes through them.
      span('main/sync/executor/disk.ts', '/** The absolute path of `relPath`, safe to write', 'foldersOf(deps).check(abs, ownToo);'),
      span('main/sync/executor/disk.ts', 'export async function ensureParent(', 'await mkdir(abs, { recursive: true });'),
      // placeRemoteTree's naming: names from the service, their clashes and the path length cap.
      span('main/engine/remote-tree.ts', 'const names = assignLocalNames(claims);', 'const key = pathKey(childPath);'),
    ],
    // Each mutant is reached by a unit test on a real disk, run first; the engine scenarios
    // come after, for what only the whole executor shows.
    testFiles: [
      'test/unit/paths.test.ts',
      'test/unit/rel-path.test.ts',
      'test/unit/writable-folders.test.ts',
      'test/unit/executor-disk.test.ts',
      'test/unit/remote-tree-names.test.ts',
      'test/unit/planner.test.ts',
      'test/integration/executor-plan.test.ts',
      'test/integration/executor-download.test.ts',
      'test/integration/engine-names.test.ts',
    ],
  },
  // Downloaded bytes: verified against the announced checksum before they are placed.
  downloads: {
    mutate: ['main/sync/executor/download.ts', 'main/sync/executor/download-hash.ts', 'main/sync/executor/place-file.ts'],
    testFiles: [
      'test/unit/place-file.test.ts',
      'test/unit/download-hash.test.ts',
      'test/integration/executor-download.test.ts',
      'test/integration/executor-download-refusals.test.ts',
      'test/hardening/hostile-service.test.ts',
    ],
  },
  // Uploads: the file is checked again after its bytes were sent, before the commit.
  uploads: {
    mutate: ['main/sync/executor/upload.ts'],
    testFiles: [
      'test/integration/executor-upload.test.ts',
      'test/integration/executor-upload-refusals.test.ts',
      'test/integration/executor-recovery.test.ts',
      'test/hardening/changing-files.test.ts',
    ],
  },
  // Local deletions: a file goes to the trash only while it holds the bytes the plan judged
  // safe to delete, and a save made while it goes there is kept.
  deletes: {
    mutate: [
      'main/sync/executor/guarded-trash.ts',
      span('main/sync/executor/deletes.ts', 'export async function deleteLocal(', 'return DONE;'),
      span('main/sync/executor/trash.ts', 'export async function moveToTrash(', "return { where: 'workspace', path: destRel };"),
    ],
    testFiles: [
      'test/integration/executor-moves-deletes.test.ts',
      'test/integration/executor-conflict-choice-trash.test.ts',
      'test/integration/executor-trash.test.ts',
    ],
  },
  // The bearer token goes to the API origin only; signed URLs and their redirects get none.
  tokens: {
    mutate: [
      'main/service-client/session.ts',
      'main/service-client/transfers.ts',
      // The Transport's api() and blob(): which requests may carry the token.
      span('main/service-client/http.ts', 'constructor(private readonly options: TransportOptions)', "name.toLowerCase() !== 'authorization'"),
    ],
    testFiles: [
      'test/unit/service-client-token.test.ts',
      'test/unit/service-client-transfers.test.ts',
      'test/unit/service-client-errors.test.ts',
      'test/unit/service-client-service.test.ts',
      'test/unit/service-client-transport.test.ts',
      'test/hardening/hostile-service.test.ts',
    ],
  },
  // The headless UI's guard: Host, token in the Authorization header, Origin and Sec-Fetch-Site,
  // and what the server lets reach the app API (JSON only, a capped body).
  guard: {
    mutate: [
      'main/ui-server/guard.ts',
      // route() and routeApi(): which checks a request passes before the app API sees it (the
      // media route's line between them belongs to the media suite); readBody()'s cap.
      span('main/ui-server/server.ts', 'async function route(req: IncomingMessage', "const url = new URL(req.url ?? '/'"),
      span('main/ui-server/server.ts', "if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405", 'return sendError(res, result.error);'),
      span('main/ui-server/server.ts', 'function readBody(req: IncomingMessage)', "req.on('error', reject);"),
    ],
    testFiles: ['test/unit/ui-server.test.ts', 'test/unit/ui-server-token.test.ts'],
  },
};

/** The names of the groups MUTATION_GROUP chooses (a comma list; all when unset). */
function chosenNames() {
  return (process.env.MUTATION_GROUP ?? Object.keys(GROUPS).join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The groups MUTATION_GROUP names. */
export function chosenGroups() {
  return chosenNames().map((name) => {
    const group = GROUPS[name];
    if (group === undefined) throw new Error(`MUTATION_GROUP: no group "${name}" (groups: ${Object.keys(GROUPS).join(', ')})`);
    return group;
  });
}

const runName = chosenNames().join('+');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // The tests come from vitest.mutation.config.mjs, not from Stryker's `testFiles`: with that
  // option Stryker 9.6 switches static mutants (a module's constants, such as the forbidden
  // characters of a name) on only after the module has loaded, so they all "survive".
  vitest: { configFile: 'vitest.mutation.config.mjs', related: false },
  mutate: chosenGroups().flatMap((g) => g.mutate),
  coverageAnalysis: 'perTest',
  // Two cores, shared: one test runner, and room for a loaded machine before a mutant counts as a timeout.
  concurrency: 1,
  timeoutFactor: 3,
  timeoutMS: 30_000,
  dryRunTimeoutMinutes: 20,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  // One report and one incremental record per choice of groups: running one group keeps
  // another's results, and `-- --incremental` tests again only the mutants whose code or tests changed.
  htmlReporter: { fileName: `reports/mutation/${runName}.html` },
  jsonReporter: { fileName: `reports/mutation/${runName}.json` },
  incrementalFile: `reports/mutation/${runName}.incremental.json`,
  thresholds: { high: 90, low: 80, break: null },
  ignorePatterns: ['dist', 'renderer/dist', 'reports', 'bench/data', 'bench/results', '.bench', 'release', 'out', 'coverage'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
