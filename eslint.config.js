// Lint enforces the layout's import rules (DEVELOPERS.md): which folder may import what.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'path', 'os', 'crypto', 'http', 'https', 'net', 'stream', 'stream/*', 'child_process', 'url', 'util', 'events', 'zlib', 'buffer', 'worker_threads'];
const pattern = (group, message) => ({ group, message });
const noRenderer = pattern(['**/renderer/**', '../renderer/*', '../../renderer/*'], 'Nothing imports renderer/.');
const noElectron = pattern(['electron', 'electron/*'], 'Only main/app/ and preload/ may import electron.');
const restrict = (...patterns) => ['error', { patterns }];

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
