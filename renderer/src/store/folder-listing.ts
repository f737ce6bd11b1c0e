import type { FileEntry } from '../../../shared/ipc.js';
import type { Loadable } from './store.js';
import { useQuery } from './use-query.js';

/** A folder as far as it is listed: its first page, then the whole of it. */
export interface FolderListing {
  entries: FileEntry[];
  /** How many entries the folder holds; more than `entries` while the rest is on its way. */
  total: number;
}

/**
 * A folder for the Files view, its first rows first: the first `pageSize` entries (what a window
 * shows), and only once they are here, the whole folder. A folder of 10,000 files shows its
 * first rows after one `lstat` per row, not one per file; a folder that fits in the page is
 * listed once. Both answers are asked again when `refreshKey` changes, and the last one shown
 * stays while they are on their way.
 */
export function useFolderListing(workspaceId: string, folder: string, refreshKey: string, pageSize: number): { result: Loadable<FolderListing>; reload: () => void } {
  const first = useQuery('listFilesFirst', { workspaceId, folder, limit: pageSize }, refreshKey);
  const page = first.result.kind === 'ready' ? first.result.value : null;
  const more = page !== null && page.entries.length < page.total;
  const whole = useQuery('listFiles', more ? { workspaceId, folder } : null, refreshKey);
  const reload = () => {
    first.reload();
    whole.reload();
  };
  if (more && whole.result.kind === 'ready') return { result: { kind: 'ready', value: { entries: whole.result.value, total: whole.result.value.length } }, reload };
  if (more && whole.result.kind === 'error') return { result: whole.result, reload };
  return { result: first.result, reload };
}
