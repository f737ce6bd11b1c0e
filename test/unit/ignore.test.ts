import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIgnoreMatcher, loadIgnoreMatcher } from '../../main/local/ignore.js';
import { IGNORE_FILE_NAME, MARKER_FILE_NAME, tempFileName } from '../../main/local/own-files.js';

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
