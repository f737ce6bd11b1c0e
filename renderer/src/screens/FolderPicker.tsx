import { LoadableView } from '../components/Loadable.js';
import { comparePaths } from '../format.js';
import { useQuery } from '../store/use-query.js';

/** Whether `path` is `folder` or inside it. */
function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/**
 * Selective sync: one checkbox per remote folder. Leaving a folder out leaves out everything in
 * it, so only the outermost left-out folders are kept.
 */
export function FolderPicker({ workspaceId, workspaceName, excluded, onChange }: { workspaceId: string; workspaceName: string; excluded: string[]; onChange: (excluded: string[]) => void }) {
  const { result, reload } = useQuery('listRemoteFolders', { workspaceId });
  const setIncluded = (path: string, included: boolean) => {
    if (included) onChange(excluded.filter((e) => !within(path, e) && !within(e, path)));
    else onChange([...excluded.filter((e) => !within(e, path)), path]);
  };
  return (
    <fieldset className="folder-picker">
      <legend>Folders of {workspaceName} to sync</legend>
      <LoadableView value={result} what="the folders" onRetry={reload}>
        {(folders) =>
          folders.length === 0 ? (
            <p className="muted">This workspace has no folders: all of it is synced.</p>
          ) : (
            <ul>
              {[...folders]
                .sort((a, b) => comparePaths(a.path, b.path))
                .map((f) => {
                  const parentOut = excluded.some((e) => e !== f.path && within(f.path, e));
                  const depth = f.path.split('/').length - 1;
                  return (
                    <li key={f.id} style={{ paddingInlineStart: `${depth * 1.25}rem` }}>
                      <label className="checkbox">
                        <input type="checkbox" checked={!excluded.some((e) => within(f.path, e))} disabled={parentOut} onChange={(e) => setIncluded(f.path, e.target.checked)} />{' '}
                        {f.path.slice(f.path.lastIndexOf('/') + 1)}
                      </label>
                    </li>
                  );
                })}
            </ul>
          )
        }
      </LoadableView>
    </fieldset>
  );
}
