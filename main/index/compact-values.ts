/**
 * How the per-asset tables store ids, checksums and nanosecond times: in the fewest bytes their
 * form allows, and back as exactly the text the caller gave. A value is packed only when its text
 * is the one canonical spelling of the packed form (lowercase hex, a decimal without leading
 * zeros); any other text (an opaque id, a base64 or prefixed checksum, uppercase hex) is stored
 * as it is. The columns are `ANY`, so a row holds whichever the value was, and a packed value
 * never equals a text one: a lookup by id finds the same row however the id is stored.
 *
 * At 100,000 assets these halve the index: a UUID is 16 bytes instead of 36, a SHA-256 32
 * instead of 64, a time 8 instead of 19.
 */

export type Packed = string | Buffer;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX = /^(?:[0-9a-f]{2})+$/;
/** Decimals SQLite's 64-bit integers hold, spelled as `CAST(n AS TEXT)` spells them back. */
const DECIMAL = /^(?:0|-?[1-9][0-9]{0,18})$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A canonical (lowercase) UUID as its 16 bytes; any other id as its text. */
export function packId(id: string): Packed {
  return UUID.test(id) ? Buffer.from(id.replaceAll('-', ''), 'hex') : id;
}

export function packOptionalId(id: string | null): Packed | null {
  return id === null ? null : packId(id);
}

/** A lowercase hex checksum (SHA-256, SHA-1, MD5...) as its bytes; any other form as its text. */
export function packChecksum(checksum: string): Packed {
  return HEX.test(checksum) ? Buffer.from(checksum, 'hex') : checksum;
}

/**
 * Nanoseconds as a 64-bit integer when the text is a plain decimal that fits; otherwise the text.
 * Read them back with `CAST(column AS TEXT)` (see `nsText`): a JavaScript number would round them.
 */
export function packNs(ns: string): bigint | string {
  if (!DECIMAL.test(ns)) return ns;
  const value = BigInt(ns);
  return value >= INT64_MIN && value <= INT64_MAX ? value : ns;
}

export function packOptionalNs(ns: string | undefined | null): bigint | string | null {
  return ns === undefined || ns === null ? null : packNs(ns);
}

// Reading back is done in SQL, so that a row comes out as strings and no Buffer is made per
// value: loading 100,000 assets this way is as quick as when they were stored as text.

/** The SQL that reads a `packId` column back as the exact text that was stored. */
export function idText(column: string): string {
  const part = (from: number, length: number): string => `hex(substr(${column}, ${from}, ${length}))`;
  const uuid = [part(1, 4), part(5, 2), part(7, 2), part(9, 2), part(11, 6)].join(` || '-' || `);
  return `iif(typeof(${column}) = 'blob', lower(${uuid}), ${column})`;
}

/** The SQL that reads a `packChecksum` column back as the exact text that was stored. */
export const checksumText = (column: string): string => `iif(typeof(${column}) = 'blob', lower(hex(${column})), ${column})`;

/** The SQL that reads a `packNs` column back as the exact text that was stored. */
export const nsText = (column: string): string => `CAST(${column} AS TEXT)`;

/** A path stored beside its key only when the two differ (most paths are their own key). */
export function packPath(path: string, key: string): string | null {
  return path === key ? null : path;
}

/** The SQL that reads a `packPath` column back. */
export const pathText = (pathColumn: string, keyColumn: string): string => `coalesce(${pathColumn}, ${keyColumn})`;

/**
 * The workspace's number, by which the per-asset tables name it: one small integer per row
 * instead of the workspace's 36-character id. NULL for an unknown workspace, which the NOT NULL
 * column then refuses on insert, and which no row matches on read.
 */
export const WORKSPACE_NUMBER = '(SELECT num FROM workspaces WHERE id = ?)';
