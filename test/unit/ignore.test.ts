import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ignore from 'ignore';
import { createIgnoreMatcher, DEFAULT_IGNORE_RULES, loadIgnoreMatcher } from '../../main/local/ignore.js';
import { asciiLiteralTest, mayMatch, ruleLiterals } from '../../main/local/rule-literals.js';
import { IGNORE_FILE_NAME, MARKER_FILE_NAME, TEMP_FILE_PREFIX, TEMP_FILE_SUFFIX, WORKSPACE_TRASH_DIR, tempFileName } from '../../main/local/own-files.js';
import { Rng, testSeed } from '../helpers/rng.js';

describe('default ignore rules', () => {
  const matcher = createIgnoreMatcher();

  it.each([
    '.DS_Store',
    'Brand/.DS_Store',
    'Thumbs.db',
    'thumbs.DB',
    'Brand/desktop.ini',
    '~$report.docx',
    'Brand/.~lock.sheet.ods#',
    'render.tmp',
    '.hero.psd.swp',
    MARKER_FILE_NAME,
    IGNORE_FILE_NAME,
    tempFileName(),
    `Brand/${tempFileName('0123abcd')}`,
  ])('ignores %s', (rel) => {
    expect(matcher.ignores(rel, false)).toBe(true);
  });

  it.each(['hero.psd', 'Brand/report.docx', 'tmp/notes.txt', '.assetsync-notes.txt', 'lock.ods'])('keeps %s', (rel) => {
    expect(matcher.ignores(rel, false)).toBe(false);
  });

  it('ignores whole system folders and never the root', () => {
    expect(matcher.ignores('$RECYCLE.BIN', true)).toBe(true);
    expect(matcher.ignores('$RECYCLE.BIN/file', false)).toBe(true);
    expect(matcher.ignores('', true)).toBe(false);
  });
});

describe('custom rules', () => {
  it('adds gitignore-syntax rules, folder-only rules and negations', () => {
    const matcher = createIgnoreMatcher('# renders\nrenders/\n*.bak\n!keep.tmp\n/top-only.txt\n');
    expect(matcher.ignores('renders', true)).toBe(true);
    expect(matcher.ignores('renders', false)).toBe(false);
    expect(matcher.ignores('Brand/renders/a.png', false)).toBe(true);
    expect(matcher.ignores('old.BAK', false)).toBe(true);
    expect(matcher.ignores('keep.tmp', false)).toBe(false);
    expect(matcher.ignores('top-only.txt', false)).toBe(true);
    expect(matcher.ignores('Brand/top-only.txt', false)).toBe(false);
  });

  it('cannot unignore our own files', () => {
    const matcher = createIgnoreMatcher(`!${MARKER_FILE_NAME}\n!${IGNORE_FILE_NAME}\n!*.part\n`);
    expect(matcher.ignores(MARKER_FILE_NAME, false)).toBe(true);
    expect(matcher.ignores(IGNORE_FILE_NAME, false)).toBe(true);
    expect(matcher.ignores(tempFileName(), false)).toBe(true);
  });

  it('matches names regardless of Unicode normalisation', () => {
    const matcher = createIgnoreMatcher('e\u0301te\u0301/\n');
    expect(matcher.ignores('été', true)).toBe(true);
    expect(matcher.ignores('e\u0301te\u0301/x.txt', false)).toBe(true);
  });
});

describe('loadIgnoreMatcher', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ignore-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads .assetsyncignore from the workspace folder', async () => {
    await writeFile(path.join(dir, IGNORE_FILE_NAME), 'drafts/\n*.psb\n');
    const matcher = await loadIgnoreMatcher(dir);
    expect(matcher.ignores('drafts', true)).toBe(true);
    expect(matcher.ignores('big.psb', false)).toBe(true);
    expect(matcher.ignores('.DS_Store', false)).toBe(true);
    expect(matcher.ignores('hero.psd', false)).toBe(false);
  });

  it('falls back to the defaults without a rules file', async () => {
    const matcher = await loadIgnoreMatcher(dir);
    expect(matcher.ignores('Thumbs.db', false)).toBe(true);
    expect(matcher.ignores('drafts', true)).toBe(false);
  });
});

describe('the per-folder shortcut', () => {
  // The rules as matched before the shortcut: every path through the package, in full.
  const inFull = (rulesText: string): ((rel: string, isDir: boolean) => boolean) => {
    const own = ignore({ ignorecase: true }).add([MARKER_FILE_NAME, IGNORE_FILE_NAME, `${TEMP_FILE_PREFIX}*${TEMP_FILE_SUFFIX}`, `/${WORKSPACE_TRASH_DIR}/`]);
    const rules = ignore({ ignorecase: true }).add([...DEFAULT_IGNORE_RULES]).add(rulesText.normalize('NFC'));
    return (rel, isDir) => {
      const n = rel.normalize('NFC').replace(/^\/+|\/+$/gu, '');
      if (n === '' || n === '.') return false;
      const candidate = isDir ? `${n}/` : n;
      return own.ignores(candidate) || rules.ignores(candidate);
    };
  };
  const RULES = ['a', 'B/', '/c', 'tmp', '*.tmp', 'a/**/d', '**/e', '!a', '!x.tmp', '[ab]x', 'x\\*', '?b', '# a', 'dir/', 'é', 'e\u0301x', 'Über', 'c/d', '*', 'a*b', '  ', 'd/**', '!dir/keep'];
  const NAMES = ['a', 'A', 'b', 'B', 'c', 'd', 'e', 'x', 'ab', 'bx', 'xb', 'x.tmp', 'tmp', 'dir', 'Dir', 'keep', 'é', 'e\u0301', 'ÜBER', 'über', '.DS_Store', 'Thumbs.db', WORKSPACE_TRASH_DIR, 'x*', 'axb'];

  it('answers as the rules do in full, for random rules and paths', () => {
    const seed = testSeed('ignore-shortcut');
    const rng = new Rng(seed, 'ignore');
    for (let round = 0; round < 300; round += 1) {
      const text = Array.from({ length: rng.int(0, 5) }, () => rng.pick(RULES)).join('\n');
      const shortcut = createIgnoreMatcher(text);
      const full = inFull(text);
      for (let i = 0; i < 40; i += 1) {
        const rel = Array.from({ length: rng.int(1, 4) }, () => rng.pick(NAMES)).join('/');
        const isDir = rng.chance(0.3);
        const ignored = full(rel, isDir);
        expect({ seed, round, text, rel, isDir, ignored: shortcut.ignores(rel, isDir) }).toEqual({ seed, round, text, rel, isDir, ignored });
        const slash = rel.lastIndexOf('/');
        const [parent, name] = slash < 0 ? ['', rel] : [rel.slice(0, slash), rel.slice(slash + 1)];
        expect({ seed, round, text, rel, isDir, ignored: shortcut.ignoresChild(parent, name, isDir) }).toEqual({ seed, round, text, rel, isDir, ignored });
      }
    }
  });
});

describe('the ASCII test of rule literals', () => {
  it('finds in printable ASCII what a lower-case search finds, whatever the rules spell', () => {
    const seed = testSeed('ascii-literal-test');
    const rng = new Rng(seed, 'literals');
    const ALPHABET = ' !#$%&()*+,-./0123456789;=?@ABCXYZ[\\]^_`abcxyz{|}~\'"<>:';
    const text = (max: number): string => Array.from({ length: rng.int(0, max) }, () => rng.pick([...ALPHABET])).join('');
    for (let round = 0; round < 2000; round += 1) {
      const rules = [...Array.from({ length: rng.int(0, 4) }, () => text(5)), ...(rng.chance(0.5) ? DEFAULT_IGNORE_RULES : [])];
      const plain = ruleLiterals(rules).filter((l) => !l.includes('/'));
      const test = asciiLiteralTest(plain);
      for (let i = 0; i < 20; i += 1) {
        const name = rng.chance(0.3) ? rng.pick(plain.length > 0 ? plain : ['x']).toUpperCase() + text(3) : text(8);
        expect({ seed, round, rules, name, may: test.test(name) }).toEqual({ seed, round, rules, name, may: mayMatch(name.toLowerCase(), plain) });
      }
    }
  });
});
