// Lint enforces the layout's import rules (CONTRIBUTING.md): which folder may import what.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'path', 'os', 'crypto', 'http', 'https', 'net', 'stream', 'stream/*', 'child_process', 'url', 'util', 'events', 'zlib', 'buffer', 'worker_threads'];
const pattern = (group, message) => ({ group, message });
const noRenderer = pattern(['**/renderer/**', '../renderer/*', '../../renderer/*'], 'Nothing imports renderer/.');
const noElectron = pattern(['electron', 'electron/*'], 'Only main/app/ and preload/ may import electron.');
const restrict = (...patterns) => ['error', { patterns }];
/** The pure planner and the helpers only it uses (the runtime code of sync/ is not among them). */
const PLANNER_FILES = ['main/sync/planner/**'];
/** Outside main/sync/, the executor is its index: what it does inside may change freely. */
const executorInternals = { regex: '^(\\.\\./)+(main/)?sync/executor/(?!index\\.js$)', message: "Outside main/sync/, import only the executor's public surface (main/sync/executor/index.ts)." };

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'release/**', 'test-results/**', 'bench/data/**', 'coverage/**'] },
  { files: ['**/*.{ts,tsx,js,mjs}'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      'no-restricted-imports': restrict(noElectron, noRenderer),
    },
  },
  {
    files: ['main/**'],
    ignores: ['main/sync/**'],
    rules: { 'no-restricted-imports': restrict(noElectron, noRenderer, executorInternals) },
  },
  {
    // The planner decides and the executor acts: it reads its three views and returns actions,
    // so it needs no Node module and nothing from the executor or the engine that runs it.
    files: PLANNER_FILES,
    rules: {
      'no-restricted-imports': restrict(
        noElectron,
        noRenderer,
        pattern(nodeBuiltins, 'The planner is pure: no Node modules.'),
        { regex: '^\\.\\.?/(.*/)?(executor|engine)/', message: 'The planner imports nothing from the executor or the engine.' },
      ),
    },
  },
  {
    // The scanner and the index produce the views the planner reads (main/model/): no import runs up to sync/.
    files: ['main/local/**', 'main/index/**'],
    rules: {
      'no-restricted-imports': restrict(
        noElectron,
        noRenderer,
        { regex: '^(\\.\\./)+(main/)?(sync|engine)/', message: 'main/local/ and main/index/ import nothing from main/sync/ or main/engine/.' },
      ),
    },
  },
  {
    // The executor and the rest of sync/'s runtime code are run by the engine: none imports it.
    files: ['main/sync/**'],
    ignores: PLANNER_FILES,
    rules: {
      'no-restricted-imports': restrict(
        noElectron,
        noRenderer,
        { regex: '^(\\.\\./)+(main/)?engine/', message: 'main/sync/ imports nothing from main/engine/.' },
      ),
    },
  },
  {
    // The views are the vocabulary every floor above shares: they depend on nothing.
    files: ['main/model/**'],
    rules: {
      'no-restricted-imports': restrict(noElectron, noRenderer, { regex: '^\\.', message: 'main/model/ imports nothing of the project.' }),
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': restrict(
        noElectron,
        noRenderer,
        pattern(nodeBuiltins, 'shared/ runs on both sides: no Node modules.'),
        pattern(['**/main/**', '**/service/**', '**/preload/**', 'react', 'react-dom'], 'shared/ imports nothing from the other layers.'),
      ),
    },
  },
  {
    files: ['service/**'],
    rules: {
      'no-restricted-imports': restrict(noElectron, noRenderer, pattern(['**/main/**', '**/preload/**'], 'service/ imports only shared/.')),
    },
  },
  {
    files: ['main/app/**', 'preload/**'],
    rules: { 'no-restricted-imports': restrict(noRenderer) },
  },
  {
    files: ['main/app/**'],
    rules: { 'no-restricted-imports': restrict(noRenderer, executorInternals) },
  },
  {
    // Component tests render the UI: they are the one place besides renderer/ that imports it.
    files: ['test/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': restrict(noElectron) },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': restrict(
        noElectron,
        // `stream/*` would also match a package's own subpath such as `eventsource-parser/stream`.
        pattern([...nodeBuiltins, '!eventsource-parser/stream'], 'The renderer has no Node.'),
        pattern(['**/main/**', '**/service/**'], 'renderer/ imports only shared/ and the preload API type.'),
        { group: ['**/preload/**', '!**/preload/api', '!**/preload/api.js'], message: 'renderer/ may import only the preload API type.' },
      ),
    },
  },
);
