import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_NAME_BYTES,
  PathEscapeError,
  assertNoSymlinkEscape,
  assignLocalNames,
  numberedName,
  pathKey,
  relativeOnDisk,
  resolveInsideRoot,
  sanitizeName,
  toRelative,
  undecodableName,
  whyNotPortable,
} from '../../main/local/paths.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('sanitizeName', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', '.._.._etc_passwd'],
    ['/abs', '_abs'],
    ['C:\\x', 'C__x'],
    ['a:b', 'a_b'],
    ['<>:"|?*', '_______'],
    ['con', 'con_'],
    ['CON.txt', 'CON_.txt'],
    ['nul.tar.gz', 'nul_.tar.gz'],
    ['Lpt9', 'Lpt9_'],
    ['COM1 .txt', 'COM1 _.txt'],
    ['console.txt', 'console.txt'],
    ['falcon.txt', 'falcon.txt'],
    ['xnul', 'xnul'],
    ['a.', 'a_'],
    ['a ', 'a_'],
    ['a. .', 'a___'],
    ['  lead', '__lead'],
    ['.', '_'],
    ['..', '__'],
    ['', '_'],
    ['\u0000', '_'],
    ['tab\there\u007f\u0085', 'tab_here__'],
    ['invoice\u202Efdp.exe', 'invoice_fdp.exe'],
    ['\uD800x', '_x'],
    ['.bashrc', '.bashrc'],
    ['  ', '__'],
    [' x ', '_x_'],
    [' .', '__'],
    ['e\u0301te\u0301.txt', 'été.txt'],
  ])('%j -> %j', (input, expected) => {
    expect(sanitizeName(input)).toBe(expected);
  });

  it('truncates long names to 255 UTF-8 bytes, keeping the extension and whole emoji', () => {
    const name = `${'😀'.repeat(80)}.png`;
    expect(bytes(name)).toBeGreaterThan(300);
    const safe = sanitizeName(name);
    expect(bytes(safe)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(safe).toBe(`${'😀'.repeat(62)}.png`);

    const family = '👨‍👩‍👧';
    const safeFamily = sanitizeName(family.repeat(20));
    expect(bytes(safeFamily)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(safeFamily).toBe(family.repeat(Math.floor(MAX_NAME_BYTES / bytes(family))));
  });

  it('never splits a multi-byte character when there is no extension', () => {
    const safe = sanitizeName(`a${'é'.repeat(200)}`);
    expect(bytes(safe)).toBe(MAX_NAME_BYTES);
    expect(safe).toBe(`a${'é'.repeat(127)}`);
  });

  it('never gives a service item the name of one of its own files', () => {
    for (const name of ['.assetsync', '.AssetSync', '.assetsyncignore', '.assetsync-trash', '.assetsync-0011223344556677.part']) {
      expect(sanitizeName(name)).toBe(`_${name}`);
      expect(sanitizeName(sanitizeName(name))).toBe(sanitizeName(name));
    }
  });

  it('always yields a creatable, portable, stable name', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sanitize-'));
    try {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (name) => {
          const safe = sanitizeName(name);
          expect(safe.length).toBeGreaterThan(0);
          expect(bytes(safe)).toBeLessThanOrEqual(MAX_NAME_BYTES);
          // eslint-disable-next-line no-control-regex
          expect(safe).not.toMatch(/[\u0000-\u001f/\\<>:"|?*]|[. ]$|^ /u);
          expect(safe).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/iu);
          expect(safe).toBe(safe.normalize('NFC'));
          expect(sanitizeName(safe)).toBe(safe);
          expect(resolveInsideRoot(dir, safe)).toBe(path.join(dir, safe));
          await writeFile(path.join(dir, safe), '');
          await rm(path.join(dir, safe));
        }),
        { numRuns: 300 },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('undecodableName', () => {
  it('shows each byte that is no UTF-8 character as \\xHH, and suggests the name read as Latin-1', () => {
    expect(undecodableName(Buffer.from('caf\xe9.txt', 'latin1'))).toEqual({ shown: 'caf\\xE9.txt', suggested: 'café.txt' });
    expect(undecodableName(Buffer.from('file3_\x81_\xfe', 'latin1'))).toEqual({ shown: 'file3_\\x81_\\xFE', suggested: 'file3___þ' });
    // An overlong "/" and a lead byte cut short, beside characters that are fine.
    expect(undecodableName(Buffer.concat([Buffer.from('né '), Buffer.from([0xc0, 0xaf, 0xe2, 0x82]), Buffer.from('.txt')])).shown).toBe('né \\xC0\\xAF\\xE2\\x82.txt');
    // Every length of sequence at both ends of its range, and bytes that begin none.
    const edges = '\u0080\u07FF\u0800\uFFFF\u{10000}\u{10FFFF}';
    expect(undecodableName(Buffer.from(`a${edges}.txt`)).shown).toBe(`a${edges}.txt`);
    expect(undecodableName(Buffer.from([0x80, 0xbf, 0xc1, 0xbf, 0xf5, 0x80, 0x80, 0x80, 0xff])).shown).toBe('\\x80\\xBF\\xC1\\xBF\\xF5\\x80\\x80\\x80\\xFF');
    // A sequence the end of the name cuts short.
    expect(undecodableName(Buffer.from([0x61, 0xf0, 0x9f, 0x98])).shown).toBe('a\\xF0\\x9F\\x98');
  });

  it('always suggests a name that syncs as it is, and shows valid UTF-8 as it reads', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (name) => {
        const { shown, suggested } = undecodableName(name);
        expect(whyNotPortable(suggested)).toBeNull();
        const text = Buffer.from(name).toString('utf8');
        if (Buffer.from(text, 'utf8').equals(name)) expect(shown).toBe(text);
        else expect(shown).toMatch(/\\x[89A-F][0-9A-F]/u);
      }),
      { numRuns: 500 },
    );
  });
});

describe('pathKey', () => {
  it('folds case and Unicode normalisation into one key', () => {
    expect(pathKey('Brand/E\u0301TE\u0301.PSD')).toBe(pathKey('brand/été.psd'));
    expect(pathKey('Brand/Été.psd')).toBe('brand/été.psd');
  });
});

describe('assignLocalNames', () => {
  const shuffled = <T>(items: T[]): T[][] => [items, [...items].reverse(), [...items.slice(1), ...items.slice(0, 1)]];

  it('keeps the name for the smallest id and numbers the others, whatever the input order', () => {
    const items = [
      { id: 'b', parentKey: 'p', name: 'Report.pdf' },
      { id: 'a', parentKey: 'p', name: 'report.pdf' },
      { id: 'c', parentKey: 'p', name: 'REPORT.PDF' },
      { id: 'd', parentKey: 'q', name: 'Report.pdf' },
    ];
    for (const order of shuffled(items)) {
      expect(Object.fromEntries(assignLocalNames(order))).toEqual({
        a: 'report.pdf',
        b: 'Report (2).pdf',
        c: 'REPORT (3).PDF',
        d: 'Report.pdf',
      });
    }
  });

  it('lets a name that needed no sanitising keep it over one that collides after sanitising', () => {
    const names = assignLocalNames([
      { id: '1', parentKey: '', name: 'a:b.txt' },
      { id: '2', parentKey: '', name: 'a_b.txt' },
      { id: '3', parentKey: '', name: 'con' },
    ]);
    expect(Object.fromEntries(names)).toEqual({ '1': 'a_b (2).txt', '2': 'a_b.txt', '3': 'con_' });
  });

  it('skips numbers that other items already use', () => {
    const items = [
      { id: '1', parentKey: '', name: 'x.txt' },
      { id: '2', parentKey: '', name: 'X.txt' },
      { id: '3', parentKey: '', name: 'x (2).txt' },
    ];
    for (const order of shuffled(items)) {
      expect(Object.fromEntries(assignLocalNames(order))).toEqual({ '1': 'x.txt', '2': 'X (3).txt', '3': 'x (2).txt' });
    }
  });

  it('keeps numbered names within the byte limit', () => {
    const long = `${'ü'.repeat(130)}.mov`;
    const names = assignLocalNames([
      { id: '1', parentKey: '', name: long },
      { id: '2', parentKey: '', name: long.toUpperCase() },
    ]);
    const second = names.get('2') ?? '';
    expect(bytes(second)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(second.endsWith(' (2).MOV')).toBe(true);
    expect(pathKey(second)).not.toBe(pathKey(names.get('1') ?? ''));
    expect(numberedName('a.tar', 12)).toBe('a (12).tar');
  });

  it('numbers a dotfile after its name, and keeps an extension only up to 32 bytes', () => {
    expect(numberedName('.bashrc', 2)).toBe('.bashrc (2)');
    const ext32 = `.${'x'.repeat(31)}`;
    expect(numberedName(`a${ext32}`, 2)).toBe(`a (2)${ext32}`);
    expect(numberedName(`a${ext32}y`, 2)).toBe(`a${ext32}y (2)`);
  });
});

describe('resolveInsideRoot', () => {
  const root = path.resolve('/srv/sync/root');

  it('resolves relative paths inside the root', () => {
    expect(resolveInsideRoot(root, 'Brand/hero.psd')).toBe(path.join(root, 'Brand', 'hero.psd'));
    expect(resolveInsideRoot(root, './a/./b')).toBe(path.join(root, 'a', 'b'));
    expect(resolveInsideRoot(root, '..hidden')).toBe(path.join(root, '..hidden'));
    expect(resolveInsideRoot(root, '')).toBe(root);
  });

  it('takes a colon after the first segment for a character of a name, not a drive', () => {
    expect(resolveInsideRoot(root, 'Brand/a:b.txt')).toBe(path.join(root, 'Brand', 'a:b.txt'));
  });

  it.each([
    ['../x', '".." segment'],
    ['a/../../x', '".." segment'],
    ['a/../b', '".." segment'],
    ['..', '".." segment'],
    ['/etc/passwd', 'absolute'],
    ['C:\\x', 'absolute'],
    ['C:x', 'absolute'],
    ['c:/x', 'absolute'],
    ['\\\\server\\share\\x', 'absolute'],
    ['a\\..\\..\\x', '".." segment'],
    ['a\u0000b', 'NUL'],
  ])('rejects %j (%s)', (rel, why) => {
    expect(() => resolveInsideRoot(root, rel)).toThrow(PathEscapeError);
    expect(() => resolveInsideRoot(root, rel)).toThrow(why);
    try {
      resolveInsideRoot(root, rel);
    } catch (error) {
      expect(error).toMatchObject({ name: 'PathEscapeError', code: 'path_escape', relPath: rel });
    }
  });
});

describe('assertNoSymlinkEscape', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'escape-')));
    root = path.join(base, 'root');
    outside = path.join(base, 'outside');
    await mkdir(path.join(root, 'real'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.txt'), 'secret');
    await symlink(outside, path.join(root, 'out'), 'dir');
    await symlink(path.join(root, 'real'), path.join(root, 'in'), 'dir');
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'secret.txt'));
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('accepts paths whose parents stay inside the root, existing or not', async () => {
    await expect(assertNoSymlinkEscape(root, path.join(root, 'real', 'a.txt'))).resolves.toBeUndefined();
    await expect(assertNoSymlinkEscape(root, path.join(root, 'new', 'deep', 'a.txt'))).resolves.toBeUndefined();
    await expect(assertNoSymlinkEscape(root, path.join(root, 'in', 'a.txt'))).resolves.toBeUndefined();
  });

  it('accepts a root that is itself reached through a symlink', async () => {
    const alias = path.join(base, 'alias');
    await symlink(root, alias, 'dir');
    await expect(assertNoSymlinkEscape(alias, path.join(alias, 'real', 'a.txt'))).resolves.toBeUndefined();
  });

  it('rejects writes through a symlinked folder that points outside', async () => {
    await expect(assertNoSymlinkEscape(root, path.join(root, 'out', 'a.txt'))).rejects.toThrow(PathEscapeError);
    await expect(assertNoSymlinkEscape(root, path.join(root, 'out', 'new', 'a.txt'))).rejects.toThrow(PathEscapeError);
  });

  it('rejects writing onto a symlink and paths outside the root', async () => {
    await expect(assertNoSymlinkEscape(root, path.join(root, 'secret.txt'))).rejects.toThrow('path is a symbolic link');
    await expect(assertNoSymlinkEscape(root, path.join(outside, 'x.txt'))).rejects.toThrow('path is outside the root');
    await expect(assertNoSymlinkEscape(root, base)).rejects.toThrow('path is outside the root');
    await expect(assertNoSymlinkEscape(root, path.join(root, 'out', 'a.txt'))).rejects.toThrow('a parent folder links outside the root');
  });

  it('rejects a path below a file, rather than take the file for a missing folder', async () => {
    await writeFile(path.join(root, 'real', 'file.txt'), 'a file');
    await expect(assertNoSymlinkEscape(root, path.join(root, 'real', 'file.txt', 'sub', 'a.txt'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('rejects a path whose folders cannot be resolved, rather than take them for missing', async () => {
    await symlink('loop', path.join(root, 'loop'), 'dir');
    await expect(assertNoSymlinkEscape(root, path.join(root, 'loop', 'a.txt'))).rejects.toMatchObject({ code: 'ELOOP' });
  });
});

describe('toRelative', () => {
  const root = path.resolve('/srv/sync/root');

  it('gives POSIX, NFC paths and keeps the on-disk spelling when asked', () => {
    const abs = path.join(root, 'Brand', 'e\u0301te\u0301.psd');
    expect(toRelative(root, abs)).toBe('Brand/été.psd');
    expect(relativeOnDisk(root, abs)).toBe('Brand/e\u0301te\u0301.psd');
    expect(toRelative(root, root)).toBe('');
  });

  it('throws for paths outside the root', () => {
    expect(() => toRelative(root, path.resolve('/srv/sync/other/x'))).toThrow(PathEscapeError);
    expect(() => toRelative(root, path.dirname(root))).toThrow('path is outside the root');
  });
});

describe('whyNotPortable', () => {
  it('lets through names every OS holds, and decomposed (NFD) spellings of them', () => {
    expect(whyNotPortable('hero v2 (final).psd')).toBeNull();
    expect(whyNotPortable('cafe\u0301.txt')).toBeNull();
  });

  it('says what stops a name, showing invisible characters by code point', () => {
    expect(whyNotPortable('what?.txt')).toContain('"?"');
    expect(whyNotPortable('invoice\u202Efdp.exe')).toContain('U+202E');
    expect(whyNotPortable('LPT1.log')).toContain('"LPT1" is a device name');
    expect(whyNotPortable('.assetsync')).toContain('its own files');
    expect(whyNotPortable(' lead.txt')).toContain('begins with a space');
    expect(whyNotPortable('a\\b.txt')).toContain('folder separator');
    expect(whyNotPortable('bell\u007f.txt')).toContain('U+007F');
    expect(whyNotPortable('CON')).toContain('"CON" is a device name');
    expect(whyNotPortable('NUL .txt')).toContain('"NUL" is a device name');
    expect(whyNotPortable('draft.')).toContain('ends with a dot or a space');
    expect(whyNotPortable(`${'x'.repeat(254)}.`)).toContain('ends with a dot or a space');
    expect(whyNotPortable('x'.repeat(255))).toBeNull();
    expect(whyNotPortable('x'.repeat(256))).toContain('longer than 255 bytes');
  });

  it('passes exactly the names sanitizeName keeps (or keeps but for NFC), plain ASCII ones too', () => {
    const piece = fc.oneof(
      fc.string({ unit: fc.constantFrom(...' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~aZ09'), maxLength: 4 }),
      fc.constantFrom('CON', 'nul', 'Lpt1', 'COM²', '.assetsync', '.ASSETSYNCIGNORE', '.assetsync-', '.part', '.assetsync-trash', 'e\u0301', '\u00e9', '\u202e', '\u007f', '\t', 'x'.repeat(120)),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const name = pieces.join('');
        const safe = sanitizeName(name);
        expect(whyNotPortable(name) === null).toBe(!name.includes('\\') && (safe === name || safe === name.normalize('NFC')));
      }),
      { numRuns: 20_000 },
    );
  });
});
