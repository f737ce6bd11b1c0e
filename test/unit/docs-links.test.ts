/**
 * The repository's documents and comments cite only what the repository holds: a link or a path
 * that leads outside it (the service's API reference and the design notes lived beside the
 * checkout, not in it) is a dead end for every reader of a clone.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../cli/cli-helpers.js';

const markdownIn = (dir: string): string[] =>
  readdirSync(join(REPO, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => (dir === '.' ? f : `${dir}/${f}`));
const DOCS = [...markdownIn('.'), ...markdownIn('docs')];
const SOURCE_DIRS = ['main', 'shared', 'service', 'renderer/src', 'preload', 'test', 'scripts', 'bench', 'demo', 'soak'];
const SOURCE = /\.(ts|tsx|mjs|js)$/;

/**
 * A numbered work session ("measured in session 12") means nothing to a reader of the clone:
 * state the measurement and the rule it supports instead. A quoted log text is not a citation.
 */
const NUMBERED_SESSION = /(?<!['"`])\bsessions? \d+\b/i;

const inside = (path: string): boolean => !relative(REPO, path).startsWith('..');

function sourceFiles(dir: string): string[] {
  const abs = join(REPO, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => relative(REPO, join(e.parentPath, e.name)));
}

describe('documents and comments', () => {
  it.each(DOCS)('%s links only files the repository holds', (doc) => {
    const text = readFileSync(join(REPO, doc), 'utf8');
    const from = dirname(join(REPO, doc));
    // A link, or a relative path to a document, must lead to a file of the repository; any other
    // relative path (a folder the demo makes) must stay in it.
    const held = (t: string): boolean => inside(resolve(from, t)) && existsSync(resolve(from, t));
    const links = [...text.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)].map((m) => m[1] ?? '').filter((t) => !/^[a-z]+:/i.test(t));
    const relativePaths = [...text.matchAll(/`(\.{1,2}\/[^`\s]*)`/g)].map((m) => m[1] ?? '');
    const files = [...links, ...relativePaths.filter((t) => /\.\w+$/.test(t))];
    const folders = relativePaths.filter((t) => !/\.\w+$/.test(t));
    expect([...files.filter((t) => !held(t)), ...folders.filter((t) => !inside(resolve(from, t)))]).toEqual([]);
    expect(text.split('\n').filter((line) => NUMBERED_SESSION.test(line))).toEqual([]);
  });

  it('in the code cite no document outside the repository', () => {
    const cited: string[] = [];
    for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
      if (file === relative(REPO, import.meta.filename)) continue;
      readFileSync(join(REPO, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\.\.\/shared\/[\w-]+\.md|design[ -]notes|api-reference\.md/i.test(line) || NUMBERED_SESSION.test(line)) cited.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(cited).toEqual([]);
  });
});
