/**
 * Generated hostile answers for the fake service: a benign baseline a device first syncs, then
 * a scenario that breaks one or more endpoints (wrong types, lying sizes, names that try to
 * leave the root, broken trees, bytes that do not match their checksum, redirects anywhere).
 * The signed URLs name a blob origin apart from the API origin, and redirects lead to a third:
 * the bearer token and the API secret must reach neither.
 */
import fc from 'fast-check';
import { bytesFor, sha256 } from '../helpers/engine.js';
import { json, notFound, raw, redirect, type HostileScript, type Origin, type Reply } from './hostile-server.js';

export const ACCOUNT_ID = 'acct-hostile';
export const WORKSPACE_ID = 'ws-hostile';
export const CREDENTIALS = { key: 'ak_hostile_key', secret: 'sk_hostile_secret' };
/** The bearer token the API origin grants when its answer is not itself the hostile part. */
export const TOKEN = 'tok-hostile-0123456789';
export const WORKSPACE_NAME = 'Hostile Workspace';

export type BlobMode =
  | 'ok'
  | 'ok-302'
  | 'redirect-elsewhere'
  | 'wrong-bytes'
  | 'wrong-bytes-etag'
  | 'flipped-byte'
  | 'elsewhere-wrong-bytes'
  | 'longer'
  | 'shorter'
  | 'cut'
  | 'cut-once'
  | 'etag-lie'
  | 'redirect-file'
  | 'url-file'
  | 'redirect-closed'
  | 'redirect-loop'
  | 'download-404'
  | 'download-malformed';

export interface AssetSpec {
  id: string;
  folderId: string | null;
  name: string;
  versionId: string;
  size: number;
  seed: string;
  checksumMode: 'honest' | 'wrong' | 'uppercase' | 'malformed';
  sizeMode: 'honest' | 'huge' | 'negative' | 'fraction' | 'string' | 'lie';
  blob: BlobMode;
}

export interface FolderSpec {
  id: string;
  parentId: string | null;
  name: string;
}

export interface Listing {
  folders: FolderSpec[];
  assets: AssetSpec[];
  /** Adds a chain of 10,000 nested folders with a file at the bottom. */
  deepChain: boolean;
}

export type FeedMode = 'page' | 'paged' | 'stuck' | 'backwards' | 'gone' | { reply: Reply };

export interface Scenario {
  token: 'ok' | Reply;
  user: 'ok' | Reply;
  workspace: 'ok' | { name: string } | Reply;
  /** The remote tree after the baseline: a hostile listing, or an answer that is none. */
  listing: Listing | Reply;
  /** How the device learns it: a restart whose cursor has expired (a full listing), or the changes feed of a running engine. */
  via: 'hierarchy' | { feed: FeedMode };
}

/** Whether the device must start again to meet the scenario (what it asks only at start). */
export const needsRestart = (s: Scenario): boolean => s.token !== 'ok' || s.user !== 'ok' || s.workspace !== 'ok' || s.via === 'hierarchy';

const BASELINE_FOLDERS: FolderSpec[] = [{ id: 'f-docs', parentId: null, name: 'Docs' }];
const BASELINE_ASSETS: AssetSpec[] = [
  { id: 'a-1', folderId: 'f-docs', name: 'notes.txt', versionId: 'v-1', size: 1200, seed: 'baseline notes', checksumMode: 'honest', sizeMode: 'honest', blob: 'ok' },
  { id: 'a-2', folderId: null, name: 'logo.bin', versionId: 'v-1', size: 9000, seed: 'baseline logo', checksumMode: 'honest', sizeMode: 'honest', blob: 'ok' },
];
export const BASELINE: Listing = { folders: BASELINE_FOLDERS, assets: BASELINE_ASSETS, deepChain: false };

const DEEP_LEVELS = 10_000;
const BASE_SEQUENCE = 10;

// --- names -----------------------------------------------------------------------------------

/**
 * Names that leave their folder only once joined to its path (a check of the first segment or
 * of a leading "../" lets them through), with either separator, with NUL, with look-alikes of
 * the separators, and with the trailing dots and spaces Windows drops. None climbs more than
 * five levels: the test keeps five empty levels above the sync root and walks them.
 */
export const ESCAPING_NAMES = [
  'x/../../../f',
  'x/../../../../../f',
  'a\\..\\..\\f',
  '..\\..\\..\\f',
  'a/./../../../f',
  'x/y/../../../../f',
  'x/../../..',
  'x/..',
  'x/../../../f.',
  'x/../../../f ',
  'x/.. /../../f',
  '... ',
  'a\u0000/../../../f',
  `x/../../../${'f'.repeat(300)}`,
  'x\u2215..\u2215..\u2215..\u2215f',
  'x\uFF0F..\uFF0F..\uFF0F..\uFF0Ff',
  'x\uFF3C..\uFF3C..\uFF3C..\uFF3Cf',
  '\uFF0E\uFF0E/\uFF0E\uFF0E/f',
  '\u2024\u2024/\u2024\u2024/f',
];
/**
 * Escaping names whose safe form the default ignore rules keep off every device ("._*", macOS's
 * AppleDouble files): never given to a synced file, which would leave this device's view (as if
 * deleted here) by design.
 */
export const IGNORED_ESCAPING_NAMES = ['./../f', './../../../f', '.\\..\\..\\f'];

const HOSTILE_NAMES = [
  '..',
  '.',
  '../../x',
  '../x',
  '/abs',
  '/etc/passwd',
  'C:\\x',
  'C:',
  '\\\\server\\share',
  'CON',
  'con.txt',
  'NUL ',
  'LPT1.psd',
  'a\u0000b',
  'e\u0301.txt',
  '\u00e9.txt',
  'x'.repeat(300),
  '\u00e9'.repeat(200),
  '',
  ' ',
  'trailing.',
  'trailing ',
  '.assetsync',
  '.ASSETSYNC',
  '.assetsyncignore',
  '.assetsync-trash',
  '.assetsync-0011223344556677.part',
  'invoice\u202Efdp.exe',
  'a/b',
  'a\\b',
  '\ud800lone',
  'Notes.TXT',
  'notes.txt',
  'Docs',
  ...ESCAPING_NAMES,
];

/** A 600 KB name of dots and spaces that does not end in one (a regex's worst case). */
export const ENORMOUS_NAME = `${'. '.repeat(300_000)}x`;

const nameArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_NAMES), weight: 6 },
  // Random names keep clear of the default ignore rules ("._*", "~$*", "*.tmp"): a file the
  // service moves to an ignored name is gone from this device's view, as if deleted there.
  { arbitrary: fc.string({ unit: fc.constantFrom(...'abcXYZ019 _-()!#%&+,;=@[]{}^\':<>|?*"'), maxLength: 12 }), weight: 2 },
  { arbitrary: fc.constant(ENORMOUS_NAME), weight: 1 },
);

// --- malformed answers -----------------------------------------------------------------------

export const deepObject = (key: string, levels: number): string => `${`{"${key}":`.repeat(levels)}{}${'}'.repeat(levels)}`;
let hugeText: string | undefined;
/** 9 MiB of JSON string: over every answer limit but the listing's. */
const huge = (): Reply => raw(JSON.stringify((hugeText ??= 'A'.repeat(9 * 1024 * 1024))));

const malformedArb: fc.Arbitrary<Reply> = fc.oneof(
  fc.constantFrom<Reply>(
    raw(''),
    raw('not json'),
    raw('{"truncated":'),
    raw('<html>oops</html>', 200, 'text/html'),
    json(null),
    json(42),
    json([]),
    json('a string'),
    json({}),
    json(1e308),
    raw(`${'['.repeat(10_000)}${']'.repeat(10_000)}`),
    raw(deepObject('invited_by_user', 10_000)),
    json({ error: { code: 'internal', message: 'boom' } }, 500),
    json({ error: 'unauthorized' }, 401),
    json({ error: { code: 'forbidden', message: 'no' } }, 403),
    raw(`{"error":{"code":"forbidden","message":"no","details":${deepObject('a', 10_000)}}}`, 403),
    { status: 302, body: '' },
    redirect('file:///etc/passwd'),
    { status: 204, body: '' },
  ),
  fc.constant(null).map(huge),
);

const tokenArb: fc.Arbitrary<Reply> = fc.oneof(
  malformedArb,
  fc.constantFrom<Reply>(json({ token: 5 }), json({ token: '' }), json({ token: 'tok', expires_in: -5 }), json({ token: ['tok'] }), json('')),
);

const userArb: fc.Arbitrary<Reply> = fc.oneof(
  malformedArb,
  fc.constantFrom<Reply>(
    json({ id: 5 }),
    json({ id: 'x'.repeat(300) }),
    json({ id: 'u', email: { nested: true } }),
    raw(`{"id":"u","invited_by_user":${deepObject('invited_by_user', 10_000)}}`),
  ),
);

const workspaceEntry = (name: unknown, extra: Record<string, unknown> = {}) => ({ id: WORKSPACE_ID, account_id: ACCOUNT_ID, name, ...extra });

const workspaceArb: fc.Arbitrary<{ name: string } | Reply> = fc.oneof(
  nameArb.map((name) => ({ name })),
  malformedArb,
  fc.constantFrom<Reply>(
    json(workspaceEntry(5)),
    json({ ...workspaceEntry('w'), id: 'another-workspace' }),
    json(workspaceEntry('w', { defaultAvatar: 99 })),
    json({ workspaces: [workspaceEntry(null)] }),
  ),
);

// --- listings --------------------------------------------------------------------------------

const FOLDER_IDS = ['f-docs', 'f-1', 'f-2', 'f-3'];
const ASSET_IDS = ['a-1', 'a-2', 'a-3', 'a-4', 'a-5'];
const PARENTS = [null, ...FOLDER_IDS, 'f-missing'];

const folderArb: fc.Arbitrary<FolderSpec> = fc.record({
  id: fc.constantFrom(...FOLDER_IDS),
  parentId: fc.constantFrom(...PARENTS),
  name: nameArb,
});

const blobArb: fc.Arbitrary<BlobMode> = fc.oneof(
  { arbitrary: fc.constantFrom<BlobMode>('ok', 'ok-302', 'redirect-elsewhere'), weight: 2 },
  {
    arbitrary: fc.constantFrom<BlobMode>(
      'wrong-bytes',
      'wrong-bytes-etag',
      'flipped-byte',
      'elsewhere-wrong-bytes',
      'longer',
      'shorter',
      'cut',
      'etag-lie',
      'redirect-file',
      'url-file',
      'redirect-closed',
      'redirect-loop',
      'download-404',
      'download-malformed',
    ),
    weight: 3,
  },
);

const assetArb: fc.Arbitrary<AssetSpec> = fc.record({
  id: fc.constantFrom(...ASSET_IDS),
  folderId: fc.constantFrom(...PARENTS),
  name: nameArb,
  versionId: fc.constantFrom('v-1', 'v-2', 'v-3'),
  size: fc.integer({ min: 0, max: 20_000 }),
  seed: fc.string({ maxLength: 6 }),
  // Mostly well-typed: a malformed field makes its item unreadable; uppercase hex is a form the
  // client accepts.
  checksumMode: fc.oneof(
    { arbitrary: fc.constant('honest' as const), weight: 12 },
    { arbitrary: fc.constant('wrong' as const), weight: 3 },
    { arbitrary: fc.constantFrom('uppercase' as const, 'malformed' as const), weight: 1 },
  ),
  sizeMode: fc.oneof(
    { arbitrary: fc.constant('honest' as const), weight: 24 },
    { arbitrary: fc.constant('lie' as const), weight: 3 },
    { arbitrary: fc.constantFrom('huge' as const, 'negative' as const, 'fraction' as const, 'string' as const), weight: 1 },
  ),
  blob: blobArb,
});

const listingArb: fc.Arbitrary<Listing> = fc.record({
  folders: fc.array(folderArb, { maxLength: 5 }),
  assets: fc.array(assetArb, { minLength: 1, maxLength: 6 }),
  deepChain: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }),
});

const listingReplyArb: fc.Arbitrary<Listing | Reply> = fc.oneof(
  { arbitrary: listingArb, weight: 8 },
  { arbitrary: malformedArb, weight: 1 },
  {
    arbitrary: fc.constantFrom<Reply>(
      json({ workspace_id: WORKSPACE_ID, sequence: -1, folders: [], assets: [] }),
      // A string of any digits is a sequence the reference allows (an empty listing with it is
      // an emptied workspace, not an error): an empty string and a fraction are not.
      json({ workspace_id: WORKSPACE_ID, sequence: '', folders: [], assets: [] }),
      json({ workspace_id: WORKSPACE_ID, sequence: 1.5, folders: [], assets: [] }),
      json({ workspace_id: WORKSPACE_ID, sequence: 1, folders: 'x', assets: [] }),
      json({ workspace_id: WORKSPACE_ID, sequence: 1, folders: [{ id: 'f', parent_id: 5 }], assets: [] }),
    ),
    weight: 1,
  },
);

const feedArb: fc.Arbitrary<FeedMode> = fc.oneof(
  { arbitrary: fc.constantFrom<FeedMode>('page', 'paged'), weight: 4 },
  { arbitrary: fc.constantFrom<FeedMode>('stuck', 'backwards', 'gone'), weight: 2 },
  { arbitrary: malformedArb.map((reply): FeedMode => ({ reply })), weight: 1 },
);

const viaArb: fc.Arbitrary<Scenario['via']> = fc.oneof(fc.constant('hierarchy' as const), feedArb.map((feed) => ({ feed })));

/** Most scenarios get past the start to the listing and the downloads; some break the start itself. */
export const scenarioArb: fc.Arbitrary<Scenario> = fc.oneof(
  { arbitrary: fc.record({ token: fc.constant('ok' as const), user: fc.constant('ok' as const), workspace: fc.constant('ok' as const), listing: listingReplyArb, via: viaArb }), weight: 6 },
  { arbitrary: fc.record({ token: tokenArb, user: fc.constant('ok' as const), workspace: fc.constant('ok' as const), listing: listingArb, via: viaArb }), weight: 1 },
  { arbitrary: fc.record({ token: fc.constant('ok' as const), user: userArb, workspace: fc.constant('ok' as const), listing: listingArb, via: viaArb }), weight: 1 },
  { arbitrary: fc.record({ token: fc.constant('ok' as const), user: fc.constant('ok' as const), workspace: workspaceArb, listing: listingArb, via: viaArb }), weight: 1 },
);

// --- cases that once broke the engine, run every time -------------------------------------

const OK_START = { token: 'ok', user: 'ok', workspace: 'ok' } as const;
const newAsset = (over: Partial<AssetSpec> = {}): AssetSpec => ({
  id: 'a-3',
  folderId: null,
  name: 'new.bin',
  versionId: 'v-1',
  size: 3000,
  seed: 'new',
  checksumMode: 'honest',
  sizeMode: 'honest',
  blob: 'ok',
  ...over,
});
const listingOf = (over: Partial<Listing>): Listing => ({ folders: [], assets: [newAsset()], deepChain: false, ...over });

export const KNOWN_HOSTILE: Scenario[] = [
  // A synced file moved into a folder the listing lacks, or whose folder is its own parent: was trashed.
  { ...OK_START, listing: listingOf({ assets: [newAsset({ id: 'a-1', folderId: 'f-missing', name: 'notes.txt' })] }), via: 'hierarchy' },
  { ...OK_START, listing: listingOf({ folders: [{ id: 'f-docs', parentId: 'f-docs', name: 'Docs' }] }), via: { feed: 'page' } },
  // Names of our own files and of ignored litter: were downloaded, then deleted on the service.
  {
    ...OK_START,
    listing: listingOf({
      folders: [{ id: 'f-1', parentId: null, name: '.assetsync-0011223344556677.part' }],
      assets: [newAsset({ folderId: 'f-1' }), newAsset({ id: 'a-4', name: 'Thumbs.db' }), newAsset({ id: 'a-5', name: '.assetsync' })],
    }),
    via: 'hierarchy',
  },
  // 10,000 nested folders: quadratic memory.
  { ...OK_START, listing: listingOf({ deepChain: true }), via: 'hierarchy' },
  // A 600 KB name: a quadratic regex.
  { ...OK_START, listing: listingOf({ assets: [newAsset({ name: ENORMOUS_NAME })] }), via: { feed: 'page' } },
  // A feed that never moves on: an endless loop.
  { ...OK_START, listing: listingOf({}), via: { feed: 'stuck' } },
  { ...OK_START, listing: listingOf({}), via: { feed: 'backwards' } },
  // Names that leave their folder only once joined, as files and as folders: the ignore
  // matcher stops a leading "../", nothing but the name checks stops these.
  {
    ...OK_START,
    listing: listingOf({
      folders: ESCAPING_NAMES.map((name, i) => ({ id: `f-esc-${i}`, parentId: i % 2 === 0 ? null : 'f-docs', name })),
      assets: ESCAPING_NAMES.flatMap((name, i) => [newAsset({ id: `a-esc-${i}`, name, folderId: i % 3 === 0 ? 'f-docs' : null }), newAsset({ id: `a-in-${i}`, name: 'in.txt', folderId: `f-esc-${i}` })]),
    }),
    via: 'hierarchy',
  },
  { ...OK_START, listing: listingOf({ assets: [...ESCAPING_NAMES, ...IGNORED_ESCAPING_NAMES].map((name, i) => newAsset({ id: `a-esc-${i}`, name })) }), via: { feed: 'paged' } },
  // Wrong bytes under an honest checksum and size (and ETag): only the hash of what arrived tells.
  ...(['wrong-bytes', 'wrong-bytes-etag', 'flipped-byte', 'elsewhere-wrong-bytes'] as const).map(
    (blob): Scenario => ({ ...OK_START, listing: listingOf({ assets: [newAsset({ blob }), newAsset({ id: 'a-2', name: 'logo.bin', versionId: 'v-2', blob })] }), via: { feed: 'page' } }),
  ),
  // JSON nested 10,000 deep: a RangeError instead of a ServiceError.
  { ...OK_START, user: raw(`{"id":"u","invited_by_user":${deepObject('invited_by_user', 10_000)}}`), listing: listingOf({}), via: 'hierarchy' },
  { ...OK_START, token: raw(`{"error":{"code":"forbidden","message":"no","details":${deepObject('a', 10_000)}}}`, 403), listing: listingOf({}), via: 'hierarchy' },
];

// --- the script ------------------------------------------------------------------------------

export const isReply = (value: Listing | Reply): value is Reply => !('assets' in value);

export const intendedBytes = (a: AssetSpec): Buffer => bytesFor(`${a.id} ${a.versionId} ${a.seed}`, a.size);

function listedChecksum(a: AssetSpec): string {
  const honest = sha256(intendedBytes(a));
  if (a.checksumMode === 'wrong') return sha256(`not the bytes of ${a.id}`);
  if (a.checksumMode === 'uppercase') return honest.toUpperCase();
  if (a.checksumMode === 'malformed') return `${honest.slice(0, 60)}zzzz`;
  return honest;
}

function listedSize(a: AssetSpec): unknown {
  switch (a.sizeMode) {
    case 'huge':
      return 2 ** 53 + 2;
    case 'negative':
      return -1;
    case 'fraction':
      return a.size + 0.5;
    case 'string':
      return String(a.size);
    case 'lie':
      return a.size + 7;
    default:
      return a.size;
  }
}

function assetEntry(a: AssetSpec, sequence: number): Record<string, unknown> {
  return {
    id: a.id,
    folder_id: a.folderId,
    name: a.name,
    file_name: a.name,
    current_version_id: a.versionId,
    version_number: Number(a.versionId.slice(2)),
    checksum: listedChecksum(a),
    size: listedSize(a),
    sequence,
    locked_by_user_id: null,
    isActive: true,
  };
}

function folderEntry(f: FolderSpec, sequence: number): Record<string, unknown> {
  return { id: f.id, workspace_id: WORKSPACE_ID, parent_id: f.parentId, name: f.name, sequence, isActive: true };
}

/** Every folder and asset of a listing, the baseline's first (a later entry with the same id overrides). */
function items(listing: Listing): { folders: FolderSpec[]; assets: AssetSpec[] } {
  const folders = [...BASELINE_FOLDERS, ...listing.folders];
  const assets = [...BASELINE_ASSETS, ...listing.assets];
  if (listing.deepChain) {
    for (let i = 0; i < DEEP_LEVELS; i += 1) folders.push({ id: `deep-${i}`, parentId: i === 0 ? null : `deep-${i - 1}`, name: `deep-folder-${i % 10}` });
    assets.push({ ...(BASELINE_ASSETS[0] as AssetSpec), id: 'a-deep', folderId: `deep-${DEEP_LEVELS - 1}`, name: 'bottom.txt', seed: 'deep' });
  }
  return { folders, assets };
}

/** The checksum the service ends up listing for each asset id (a later entry overrides). */
export function currentChecksums(scenario: Scenario): Map<string, string> {
  const listing = isReply(scenario.listing) ? BASELINE : scenario.listing;
  return new Map(items(listing).assets.map((a) => [a.id, verifiedForm(a)]));
}

export const BASELINE_PATHS: ReadonlyMap<string, string> = new Map([
  ['Docs/notes.txt', 'a-1'],
  ['logo.bin', 'a-2'],
]);

/**
 * Assets listed with a checksum of no form the client knows (id -> listed size): the client
 * checks their bytes by size alone, and says so in `status`.
 */
export function sizeCheckedAssets(scenario: Scenario): Map<string, number> {
  const listing = isReply(scenario.listing) ? BASELINE : scenario.listing;
  const checked = new Map<string, number>();
  for (const a of items(listing).assets) {
    const size = listedSize(a);
    if (a.checksumMode === 'malformed' && typeof size === 'number') checked.set(a.id, size);
  }
  return checked;
}

/** Checksums the scenario lists: bytes on disk that hash to one of them were verified. */
export function listedChecksums(scenario: Scenario): Set<string> {
  const listing = isReply(scenario.listing) ? BASELINE : scenario.listing;
  return new Set([...BASELINE_ASSETS, ...items(listing).assets].map(verifiedForm));
}

/**
 * A listed checksum as the bytes on disk hash to it: hex in either case is a form the client
 * accepts and verifies (the reference names no case), and a file's hash is lowercase.
 */
const verifiedForm = (a: AssetSpec): string => listedChecksum(a).toLowerCase();

interface ScriptContext {
  apiUrl: string;
  blobUrl: string;
  otherUrl: string;
  /** A file outside the root that a `file://` URL points at. */
  canary: string;
}

const blobName = (a: AssetSpec): string => `${a.id}--${a.versionId}`;

/** Other bytes of the same length: a whole other blob, or one byte changed. */
const wrongBytes = (a: AssetSpec): Buffer => bytesFor(`evil ${a.id} ${a.versionId} ${a.seed}`, a.size);
function flipped(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  const at = Math.floor(out.length / 2);
  if (out.length > 0) out[at] = (out[at] ?? 0) ^ 0x01;
  return out;
}

/**
 * What an origin serves for a blob. The API origin serves none: a client that asks it for one
 * followed no URL the service gave. The "other" origin serves what a redirect sent it for.
 */
function blobReply(a: AssetSpec, origin: Origin, ctx: ScriptContext, served: number): Reply {
  if (origin === 'api') return notFound();
  const bytes = intendedBytes(a);
  const octets = { 'content-type': 'application/octet-stream' };
  // An honest ETag: the checksum the listing announces for these bytes.
  const etag = { ...octets, etag: `"${sha256(bytes)}"` };
  const elsewhere = `${ctx.otherUrl}/blob/${encodeURIComponent(blobName(a))}`;
  switch (a.blob) {
    case 'redirect-elsewhere':
      return origin === 'blob' ? redirect(elsewhere) : { headers: etag, body: bytes };
    case 'elsewhere-wrong-bytes':
      return origin === 'blob' ? redirect(elsewhere, 307) : { headers: etag, body: wrongBytes(a) };
    case 'redirect-file':
      return redirect(`file://${ctx.canary}`);
    case 'redirect-closed':
      return redirect('http://127.0.0.1:1/blob/nowhere');
    case 'redirect-loop':
      return redirect(`${ctx.blobUrl}/blob/${encodeURIComponent(blobName(a))}`);
    case 'wrong-bytes':
      return { headers: octets, body: wrongBytes(a) };
    case 'wrong-bytes-etag':
      return { headers: etag, body: wrongBytes(a) };
    case 'flipped-byte':
      return { headers: etag, body: flipped(bytes) };
    case 'longer':
      return { headers: etag, body: Buffer.concat([bytes, Buffer.from('and some more bytes')]) };
    case 'shorter':
      return { headers: etag, body: bytes.subarray(0, Math.floor(a.size / 2)) };
    case 'cut':
      return { headers: etag, body: bytes, cutAfter: Math.floor(a.size / 2) };
    case 'cut-once':
      // Like any origin of this server, it ignores Range: a resume gets the whole body again.
      return served === 0 ? { headers: etag, body: bytes, cutAfter: Math.floor(a.size / 2) } : { headers: etag, body: bytes };
    case 'etag-lie':
      return { headers: { ...etag, etag: `"${sha256('something else')}"` }, body: bytes };
    default:
      return { headers: etag, body: bytes };
  }
}

function downloadReply(a: AssetSpec, ctx: ScriptContext): Reply {
  const url = `${ctx.blobUrl}/blob/${encodeURIComponent(blobName(a))}`;
  switch (a.blob) {
    case 'ok-302':
      return redirect(url);
    case 'url-file':
      return json({ url: `file://${ctx.canary}` });
    case 'download-404':
      return notFound();
    case 'download-malformed':
      return json({ url: 5 });
    default:
      return json({ url });
  }
}

function feedReply(mode: FeedMode, since: number, folders: FolderSpec[], assets: AssetSpec[]): Reply {
  if (typeof mode === 'object') return mode.reply;
  const changes = [
    ...folders.map((f, i) => ({ type: 'folder', sequence: BASE_SEQUENCE + 1 + i, id: f.id, deleted: false, folder: folderEntry(f, BASE_SEQUENCE + 1 + i) })),
    ...assets.map((a, i) => ({ type: 'asset', sequence: BASE_SEQUENCE + 1 + folders.length + i, id: a.id, deleted: false, asset: assetEntry(a, BASE_SEQUENCE + 1 + folders.length + i) })),
  ];
  const last = BASE_SEQUENCE + changes.length;
  switch (mode) {
    case 'stuck':
      return json({ sequence: since, has_more: true, changes: [] });
    case 'backwards':
      return json({ sequence: 0, has_more: true, changes: changes.slice(0, 1) });
    case 'gone':
      return json({ error: { code: 'cursor_expired', message: 'too old' } }, 410);
    case 'paged': {
      const next = changes.find((c) => c.sequence > since);
      return json({ sequence: next?.sequence ?? last, has_more: next !== undefined && next.sequence < last, changes: next ? [next] : [] });
    }
    default:
      return json({ sequence: last, has_more: false, changes: since < last ? changes : [] });
  }
}

/** What the fake service answers for a scenario (the baseline: `scenario` null). */
export function scriptFor(scenario: Scenario | null, ctx: ScriptContext): HostileScript {
  const listing = scenario === null || isReply(scenario.listing) ? BASELINE : scenario.listing;
  const { folders, assets } = items(listing);
  const byBlob = new Map(assets.map((a) => [blobName(a), a]));
  const byAsset = new Map(assets.map((a) => [a.id, a]));
  const served = new Map<string, number>();
  const sequence = scenario === null ? BASE_SEQUENCE : BASE_SEQUENCE + folders.length + assets.length;
  const hierarchy = (): Reply =>
    scenario !== null && isReply(scenario.listing)
      ? scenario.listing
      : json({
          workspace_id: WORKSPACE_ID,
          sequence,
          folders: folders.map((f, i) => folderEntry(f, i + 1)),
          assets: assets.map((a, i) => assetEntry(a, i + 1)),
        });
  const pick = (value: 'ok' | Reply | undefined, ok: () => Reply): Reply => (value === undefined || value === 'ok' ? ok() : value);
  return {
    token: () => pick(scenario?.token, () => json(TOKEN)),
    user: () => pick(scenario?.user, () => json({ id: 'user-hostile', email: 'someone@example.com' })),
    workspaces: () => {
      const w = scenario?.workspace;
      if (w === undefined || w === 'ok') return json(workspaceEntry(WORKSPACE_NAME));
      if ('name' in w) return json(workspaceEntry(w.name));
      return w;
    },
    hierarchy,
    changes: (since) => {
      if (scenario === null || since >= BASE_SEQUENCE + folders.length + assets.length) {
        return json({ sequence: Math.max(since, sequence), has_more: false, changes: [] });
      }
      // A restart resumes from the tree its index kept: an expired cursor makes it list in full.
      if (scenario.via === 'hierarchy') return json({ error: { code: 'cursor_expired', message: 'list the workspace again' } }, 410);
      if (isReply(scenario.listing)) return scenario.listing;
      return feedReply(scenario.via.feed, since, folders, assets);
    },
    download: (assetId) => {
      const a = byAsset.get(assetId);
      return a ? downloadReply(a, ctx) : notFound();
    },
    blob: (name, origin) => {
      const a = byBlob.get(name);
      if (a === undefined) return notFound();
      const times = served.get(name) ?? 0;
      served.set(name, times + 1);
      return blobReply(a, origin, ctx, times);
    },
  };
}
