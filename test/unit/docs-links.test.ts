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

/** An issue number is the same dead end once the tracker is out of reach: state the rule the fix made. */
const NUMBERED_ISSUE = /\bissues? #?\d+\b/i;

/** Notes kept outside the repository, cited by section ("design notes §4"): state the decision instead. */
const OUTSIDE_NOTES = /design[ -]notes|§/i;

/**
 * A repository document named in prose or a comment ("see CONTRIBUTING.md", "docs/protocol.md"):
 * the name must stay true when a document is renamed or split.
 */
const DOCUMENT_NAME = /(?<![\w./-])((?:docs\/[\w-]+|[A-Z][A-Z_-]+)\.md)\b/g;

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a Markdown document's headings, numbered as GitHub numbers repeats. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

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
    expect(text.split('\n').filter((line) => NUMBERED_SESSION.test(line) || NUMBERED_ISSUE.test(line) || OUTSIDE_NOTES.test(line))).toEqual([]);
  });

  it.each(DOCS)('%s links to headings that exist', (doc) => {
    const text = readFileSync(join(REPO, doc), 'utf8');
    const from = dirname(join(REPO, doc));
    const broken = [...text.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)].flatMap((m) => {
      const target = m[1] ? resolve(from, m[1]) : join(REPO, doc);
      if (!target.endsWith('.md') || !existsSync(target)) return [];
      return anchorsOf(readFileSync(target, 'utf8')).has(m[2] ?? '') ? [] : [m[0]];
    });
    expect(broken).toEqual([]);
  });

  it('name only documents the repository holds', () => {
    const stale: string[] = [];
    for (const file of [...DOCS, ...SOURCE_DIRS.flatMap(sourceFiles), 'package.json', 'eslint.config.js']) {
      if (file === relative(REPO, import.meta.filename)) continue;
      readFileSync(join(REPO, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(DOCUMENT_NAME)) {
            const name = m[1] ?? '';
            if (!existsSync(join(REPO, name)) && !existsSync(join(REPO, dirname(file), name))) stale.push(`${file}:${i + 1}: ${name}`);
          }
        });
    }
    expect(stale).toEqual([]);
  });

  it('in the code cite no document outside the repository', () => {
    const cited: string[] = [];
    for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
      if (file === relative(REPO, import.meta.filename)) continue;
      readFileSync(join(REPO, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\.\.\/shared\/[\w-]+\.md|api-reference\.md/i.test(line) || OUTSIDE_NOTES.test(line) || NUMBERED_SESSION.test(line) || NUMBERED_ISSUE.test(line)) cited.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(cited).toEqual([]);
  });
});
