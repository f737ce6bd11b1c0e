/** Headers of a blob response that both download paths read: the range served and the ETag. */

export interface ContentRange {
  start: number;
  end: number;
  total: number | undefined;
}

export function parseContentRange(value: string | undefined): ContentRange | undefined {
  const match = value === undefined ? null : /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value.trim());
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = Number(match[2]);
  const total = match[3] === '*' ? undefined : Number(match[3]);
  if (end < start || (total !== undefined && end >= total)) return undefined;
  return { start, end, total };
}

/** The entity tag without its quotes or weak marker: the service's ETag is the blob's checksum. */
export function unquoteEtag(value: string | undefined): string | undefined {
  return value?.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}
