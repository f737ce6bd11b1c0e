/**
 * Every edit a soak made, on either side: the bytes' SHA-256 and where they were written. The
 * content of each edit is unique (seeded pseudo-random bytes), so a checksum names one edit.
 */
export type Side = 'local' | 'remote';

export interface Edit {
  side: Side;
  /** A new file, or new bytes for an existing one. */
  kind: 'create' | 'edit';
  /** Where the bytes were written: a path under the workspace folder, or of service names. */
  path: string;
  checksum: string;
  size: number;
  /** The sync run during which the edit was made (0: before the first). */
  run: number;
  /** False when the service call failed with an unknown outcome: the edit may or may not exist. */
  confirmed: boolean;
  /** The user later overwrote or deleted these bytes on disk: nothing has to keep them. */
  superseded: boolean;
}

export class Ledger {
  readonly edits: Edit[] = [];

  add(edit: Omit<Edit, 'superseded'>): void {
    this.edits.push({ ...edit, superseded: false });
  }

  /**
   * The user overwrote or deleted a file that held these bytes. A local edit the sync had not
   * picked up yet is then gone by the user's own hand; remote edits are versions and stay.
   */
  supersede(checksum: string): void {
    for (const edit of this.edits) if (edit.side === 'local' && edit.checksum === checksum) edit.superseded = true;
  }

  /** The edits that must still exist somewhere after the sync converged. */
  required(): Edit[] {
    return this.edits.filter((e) => e.confirmed && !e.superseded);
  }

  counts(): { local: number; remote: number; superseded: number; unconfirmed: number } {
    const of = (p: (e: Edit) => boolean): number => this.edits.filter(p).length;
    return { local: of((e) => e.side === 'local'), remote: of((e) => e.side === 'remote'), superseded: of((e) => e.superseded), unconfirmed: of((e) => !e.confirmed) };
  }
}
