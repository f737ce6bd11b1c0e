/** The command line's pure parts: option parsing, precedence of settings, wording of output. */
import { describe, expect, it } from 'vitest';
import type { AssetVersion } from '../../main/service-client/index.js';
import { Config } from '../../main/config.js';
import { describeError, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../../main/cli/error-report.js';
import { normalizeExcluded, parseRate, resolveService, resolveWorkspaces } from '../../main/cli/options.js';
import { activityLine, formatBytes, formatDuration, problemLines } from '../../main/cli/output.js';
import { overallStoredState, storedState } from '../../main/cli/status.js';
import { versionRows } from '../../main/cli/versions.js';
import { CredentialsError } from '../../main/bootstrap.js';
import { ServiceError } from '../../main/service-client/index.js';

describe('parseRate', () => {
  it('reads binary multiples, with or without B and /s', () => {
    expect(parseRate('2048')).toBe(2048);
    expect(parseRate('500K')).toBe(500 * 1024);
    expect(parseRate('10M')).toBe(10 * 1024 * 1024);
    expect(parseRate('1.5MB/s')).toBe(Math.floor(1.5 * 1024 * 1024));
    expect(parseRate('1GiB')).toBe(1024 ** 3);
  });

  it('"off" and 0 mean unlimited; anything else is a usage error', () => {
    expect(parseRate('off')).toBeUndefined();
    expect(parseRate('0')).toBeUndefined();
    expect(() => parseRate('fast')).toThrow(UsageError);
    expect(() => parseRate('10X')).toThrow(UsageError);
  });
});

describe('settings precedence', () => {
  const config = Config.parse({ baseUrl: 'https://config.example', accountId: 'acct-config', workspaces: [{ id: 'w1', folder: 'Mine', excluded: ['Raw'] }] });

  it('an option wins over the config file, which wins over the fallback', () => {
    expect(resolveService({ baseUrl: 'https://option.example/' }, config, { baseUrl: 'https://index.example', accountId: 'acct-index' })).toEqual({
      baseUrl: 'https://option.example',
      accountId: 'acct-config',
    });
    expect(resolveService({}, Config.parse({}), { baseUrl: 'https://index.example', accountId: 'acct-index' })).toEqual({ baseUrl: 'https://index.example', accountId: 'acct-index' });
  });

  it('says what is missing', () => {
    expect(() => resolveService({}, Config.parse({}))).toThrow(/--base-url/);
    expect(() => resolveService({ baseUrl: 'https://x.example' }, Config.parse({}))).toThrow(/--account/);
    expect(() => resolveService({ baseUrl: 'ftp://x.example', account: 'a' }, Config.parse({}))).toThrow(UsageError);
  });

  it('--workspace keeps the config settings of a known workspace and adds --exclude to each', () => {
    expect(resolveWorkspaces(['w1', 'w2'], ['Old/'], config)).toEqual([
      { id: 'w1', folder: 'Mine', excluded: ['Raw', 'Old'] },
      { id: 'w2', folder: undefined, excluded: ['Old'] },
    ]);
    expect(resolveWorkspaces(undefined, undefined, config)).toEqual([{ id: 'w1', folder: 'Mine', excluded: ['Raw'] }]);
    expect(() => resolveWorkspaces(undefined, undefined, Config.parse({}))).toThrow(/--workspace/);
  });

  it('exclusions are folder paths inside the workspace', () => {
    expect(normalizeExcluded('\\Photography\\Raw\\')).toBe('Photography/Raw');
    expect(() => normalizeExcluded('../elsewhere')).toThrow(UsageError);
    expect(() => normalizeExcluded('/')).toThrow(UsageError);
  });
});

describe('output wording', () => {
  it('one line per activity item, the path first', () => {
    expect(activityLine({ kind: 'downloaded', path: 'Brand/logo.svg', message: 'Downloaded Brand/logo.svg (version 2)' })).toBe('downloaded Brand/logo.svg (version 2)');
    expect(activityLine({ kind: 'moved', path: 'b.md', message: 'Moved a.md to b.md' })).toBe('moved a.md to b.md');
    expect(activityLine({ kind: 'error', path: 'x.psd', message: 'x.psd: disk full' })).toBe('error x.psd: disk full');
    expect(activityLine({ kind: 'conflict', path: 'x (copy).psd', message: 'Kept x.psd as x (copy).psd' }, '[Spring] ')).toBe('[Spring] conflict x (copy).psd: Kept x.psd as x (copy).psd');
  });

  it('a problem comes with what to do and when it is retried', () => {
    const lines = problemLines({ workspaceId: 'w', path: 'a.psd', kind: 'locked', message: 'locked by Rafael', hint: 'Ask them to unlock it.', attempts: 2, nextRetryAt: '2030-01-01T00:00:00Z' });
    expect(lines[0]).toBe('problem (locked) a.psd: locked by Rafael');
    expect(lines[1]).toBe('  what to do: Ask them to unlock it.');
    expect(lines[2]).toMatch(/^ {2}next try after 20\d\d-\d\d-\d\d \d\d:\d\d \(2 attempts so far\)$/);
  });

  it('sizes and durations read like a file manager', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(300 * 1024 * 1024)).toBe('300 MB');
    expect(formatDuration(null)).toBe('?');
    expect(formatDuration(185)).toBe('3m05s');
    expect(formatDuration(3720)).toBe('1h02m');
  });
});

describe('status from the index', () => {
  it('anything left to do is never up to date', () => {
    expect(storedState({ listed: false, errors: 0, interrupted: 0, behind: 0 })).toBe('never-synced');
    expect(storedState({ listed: true, errors: 1, interrupted: 0, behind: 0 })).toBe('attention');
    expect(storedState({ listed: true, errors: 0, interrupted: 2, behind: 0 })).toBe('incomplete');
    expect(storedState({ listed: true, errors: 0, interrupted: 0, behind: 3 })).toBe('incomplete');
    expect(storedState({ listed: true, errors: 0, interrupted: 0, behind: 0 })).toBe('up-to-date');
    expect(overallStoredState(['up-to-date', 'incomplete', 'up-to-date'])).toBe('incomplete');
    expect(overallStoredState([])).toBe('never-synced');
  });
});

describe('versionRows', () => {
  const version = (n: number, parent: string | undefined, user = 'u1'): AssetVersion => ({
    id: `v${n}`,
    asset_id: 'a',
    commit_parent_id: parent,
    created_by_user_id: user,
    name: 'a.psd',
    description: undefined,
    content_type: undefined,
    created_at: undefined,
    deleted: undefined,
    size: n * 100,
    version_number: n,
    checksum: `${n}`.repeat(64),
    user: { id: undefined, email: undefined, username: undefined, firstName: 'Dana', lastName: 'Designer' },
  });

  it('numbers the parents, newest first, marking current and local versions', () => {
    const rows = versionRows([version(1, undefined), version(3, 'v2'), version(2, 'v1')], 'v3', 'v2');
    expect(rows.map((r) => [r.number, r.parent, r.current, r.local, r.author])).toEqual([
      [3, 2, true, false, 'Dana Designer'],
      [2, 1, false, true, 'Dana Designer'],
      [1, null, false, false, 'Dana Designer'],
    ]);
  });
});

describe('describeError', () => {
  it('usage and credential errors exit 2; a rejected key says what to do without details of the secret', () => {
    expect(describeError(new UsageError('no root')).exitCode).toBe(EXIT_USAGE);
    expect(describeError(new CredentialsError('none')).exitCode).toBe(EXIT_USAGE);
    const auth = describeError(new ServiceError({ kind: 'auth', status: 401, message: 'POST /auth/token: 401 unauthorized' }));
    expect(auth).toEqual({ exitCode: EXIT_USAGE, message: expect.stringContaining('The service rejected the API key (401). Run `asset-sync login`') });
    expect(describeError(new ServiceError({ kind: 'network', message: 'ECONNREFUSED' })).message).toContain('--base-url');
    expect(describeError(new Error('boom')).exitCode).toBe(EXIT_PROBLEMS);
  });
});
