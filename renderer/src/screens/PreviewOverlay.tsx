import { useCallback, useState } from 'react';
import type { MediaPreview } from '../../../shared/ipc.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { Dialog } from '../components/Dialog.js';
import { Preview } from '../components/Preview.js';
import { useServices } from '../store/context.js';
import { openWithConsent } from '../store/open-with-consent.js';
import type { PreviewRoute } from '../store/route.js';
import { useQuery } from '../store/use-query.js';

/**
 * The preview route: one file or version in a dialog over the screen it was opened from, with
 * who made the version and its note (from the version list), "Open" and a way to its versions.
 */
export function PreviewOverlay({ route }: { route: PreviewRoute }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  const { workspaceId, path, assetId, versionId } = route;
  const { result } = useQuery('listVersions', path ? { workspaceId, path } : null);
  const versions = result.kind === 'ready' ? result.value : [];
  const version = versions.find((v) => (versionId ? v.id === versionId : v.current));
  const close = () => store.navigate(route.under);
  const open = path
    ? () =>
        void run(async () => {
          await openWithConsent((runConfirmed) =>
            versionId ? bridge.invoke('openVersion', { workspaceId, path, versionId, runConfirmed }) : bridge.invoke('openFile', { workspaceId, path, runConfirmed }),
          );
          return null;
        })
    : undefined;
  // A version known by its asset only (a review's) is numbered once its preview says so.
  const [shownNumber, setShownNumber] = useState<number | null>(null);
  const onShown = useCallback((preview: MediaPreview) => setShownNumber(preview.versionNumber), []);
  const number = version?.number ?? shownNumber;
  const title = number === null ? route.name : `${route.name}, version ${number}`;
  return (
    <Dialog
      title={title}
      onClose={close}
      className="preview-dialog"
      actions={
        path && route.under.view !== 'versions' ? (
          <button type="button" onClick={() => store.navigate({ view: 'versions', workspaceId, path, assetId })}>
            Versions
          </button>
        ) : null
      }
    >
      <Preview
        workspaceId={workspaceId}
        item={{ assetId, path, versionId }}
        name={route.name}
        details={version ? { author: version.author, createdAt: version.createdAt, note: version.description } : undefined}
        onOpen={open}
        onShown={onShown}
      />
      <ActionStatus outcome={outcome} />
    </Dialog>
  );
}
