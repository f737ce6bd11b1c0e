/**
 * Reads a zip the way a careless extractor would: every entry's name exactly as stored (yauzl's
 * own checks and its backslash-to-slash conversion are off, so the test sees what an extractor
 * gets), with its bytes.
 */
import yauzl from 'yauzl';

export interface ZipEntry {
  /** The stored name, decoded as UTF-8 when the entry says so, byte for byte otherwise. */
  name: string;
  /** Undefined for a directory entry. */
  bytes: Buffer | undefined;
}

export function unzip(zip: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, decodeStrings: false }, (error, archive) => {
      if (error || !archive) return reject(error ?? new Error('no archive'));
      const entries: ZipEntry[] = [];
      archive.on('error', reject);
      archive.on('end', () => resolve(entries));
      archive.on('entry', (entry: yauzl.Entry) => {
        const raw = entry.fileName as unknown as Buffer;
        const name = raw.toString((entry.generalPurposeBitFlag & 0x800) !== 0 ? 'utf8' : 'latin1');
        if (name.endsWith('/')) {
          entries.push({ name, bytes: undefined });
          return archive.readEntry();
        }
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ name, bytes: Buffer.concat(chunks) });
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    });
  });
}

/** Why an entry name could write outside the folder it is extracted to (on POSIX or Windows), or undefined when it cannot. */
export function unsafeEntryName(name: string): string | undefined {
  const path = name.endsWith('/') ? name.slice(0, -1) : name;
  if (path === '') return 'an empty name';
  if (path.includes('\\')) return 'a backslash';
  if (path.startsWith('/')) return 'an absolute path';
  // C0, DEL, C1: invisible, and some extractors treat them as the end of the name.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(path)) return 'a control character';
  for (const segment of path.split('/')) {
    if (segment === '') return 'an empty segment';
    if (/^[A-Za-z]:/.test(segment)) return `a drive letter (${segment.slice(0, 2)})`;
    // Windows drops trailing dots and spaces: ". ." and ".. " are ".." there.
    if (/^[. ]+$/.test(segment)) return `a segment Windows reads as "." or ".." (${JSON.stringify(segment)})`;
  }
  return undefined;
}
