import { useMemo, useRef, type ReactNode } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { FileEntry } from '../../../shared/ipc.js';
import type { TransferProgress, WorkspaceStatus } from '../../../shared/engine.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { ActionsHeader, DataTable } from '../components/DataTable.js';
import { EntryIcon } from '../components/EntryIcon.js';
import { LockButton } from '../components/LockButton.js';
import { StateIcon } from '../components/StateIcon.js';
import { Thumbnail } from '../components/Thumbnail.js';
import { compareNames, entryStateOf, formatBytes, formatDate, plural } from '../format.js';
import { useServices, useUiState } from '../store/context.js';
import { openWithConsent } from '../store/open-with-consent.js';
import { useStoredChoice } from '../store/stored-choice.js';
import { useDocumentTop, useWidth } from './measure.js';

type Layout = 'list' | 'grid';
const LAYOUTS: readonly Layout[] = ['list', 'grid'];

/** What a row or a card does; the same in both layouts. */
interface EntryActions {
  enter(entry: FileEntry): void;
  versions(entry: FileEntry): void;
  preview(entry: FileEntry): void;
  open(entry: FileEntry): void;
  reveal(entry: FileEntry): void;
  /** Lock or unlock the file (nothing for a folder, or a file someone else holds). */
  lock(entry: FileEntry): ReactNode;
}

interface Shown {
  entry: FileEntry;
  transfer: TransferProgress | undefined;
  writing: boolean;
}

/** A row's estimated height before it is measured (a long name wraps and makes it taller). */
const ROW_HEIGHT = 53;
const ROW_OVERSCAN = 12;
const CARD_WIDTH = 168;
const CARD_GAP = 12;
const CARD_HEIGHT = 250;
const CARD_OVERSCAN = 3;

/** How many entries fill this window with the rows out of view that either layout renders too: a folder's first page. */
export function firstPageSize(): number {
  const listRows = Math.ceil(window.innerHeight / ROW_HEIGHT) + ROW_OVERSCAN;
  const columns = Math.max(1, Math.floor((window.innerWidth + CARD_GAP) / (CARD_WIDTH + CARD_GAP)));
  const cards = (Math.ceil(window.innerHeight / (CARD_HEIGHT + CARD_GAP)) + CARD_OVERSCAN) * columns;
  return Math.min(1000, Math.max(listRows, cards));
}

/**
 * A folder's contents as a list (a table) or a grid of pictures, as the user last chose on this
 * computer. Both render only what is in view (a folder of 10,000 files opens as fast as one of
 * 20) and ask for the thumbnails of what is shown; a file being uploaded shows how far it got.
 * `entries` may be the folder's first page while the rest is on its way: the counts the user and
 * a screen reader are told are of the `total`.
 */
export function FolderContents({ workspace, folder, entries, total }: { workspace: WorkspaceStatus; folder: string; entries: FileEntry[]; total: number }) {
  const { bridge, store } = useServices();
  const { status } = useUiState();
  const { outcome, run } = useAction();
  const [layout, setLayout] = useStoredChoice<Layout>('asset-sync.files-layout', LAYOUTS, 'list');
  const workspaceId = workspace.workspaceId;
  const sorted = useMemo(() => [...entries].sort((a, b) => Number(b.isFolder) - Number(a.isFolder) || compareNames(a.name, b.name)), [entries]);
  const transfers = status.kind === 'ready' ? status.value.transfers : null;
  const byPath = useMemo(() => new Map((transfers ?? []).filter((t) => t.workspaceId === workspaceId).map((t) => [t.path, t])), [transfers, workspaceId]);
  const writing = useMemo(() => new Set(workspace.writing ?? []), [workspace.writing]);
  const shown = useMemo(() => sorted.map((entry): Shown => ({ entry, transfer: byPath.get(entry.path), writing: writing.has(entry.path) })), [sorted, byPath, writing]);

  if (entries.length === 0) return <p className="muted">This folder is empty. Files put in it, on this computer or on the service, are listed here as they sync.</p>;
  const actions: EntryActions = {
    enter: (entry) => store.navigate({ view: 'files', workspaceId, folder: entry.path }),
    versions: (entry) => store.navigate({ view: 'versions', workspaceId, path: entry.path, assetId: entry.assetId }),
    preview: (entry) =>
      store.navigate({ view: 'preview', workspaceId, path: entry.path, assetId: entry.assetId, versionId: null, name: entry.name, under: { view: 'files', workspaceId, folder } }),
    open: (entry) => void run(async () => (await openWithConsent((runConfirmed) => bridge.invoke('openFile', { workspaceId, path: entry.path, runConfirmed })), null)),
    reveal: (entry) => void run(async () => (await bridge.invoke('showInFolder', { workspaceId, path: entry.path }), null)),
    lock: (entry) => <LockButton workspaceId={workspaceId} entry={entry} run={run} />,
  };
  const caption = `Contents of ${folder || 'the workspace'}`;
  return (
    <>
      <div className="files-toolbar">
        <p className="muted small">{plural(total, 'item')}</p>
        <div role="group" aria-label="Show as" className="segmented">
          {LAYOUTS.map((l) => (
            <button key={l} type="button" aria-pressed={layout === l} onClick={() => setLayout(l)}>
              {l === 'list' ? 'List' : 'Grid'}
            </button>
          ))}
        </div>
      </div>
      {layout === 'list' ? (
        <FileList workspaceId={workspaceId} rows={shown} total={total} caption={caption} actions={actions} />
      ) : (
        <FileGrid workspaceId={workspaceId} cards={shown} total={total} caption={caption} actions={actions} />
      )}
      <ActionStatus outcome={outcome} />
    </>
  );
}

function FileList({ workspaceId, rows, total, caption, actions }: { workspaceId: string; rows: Shown[]; total: number; caption: string; actions: EntryActions }) {
  const body = useRef<HTMLTableSectionElement>(null);
  const top = useDocumentTop(body);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: ROW_OVERSCAN,
    scrollMargin: top,
    getItemKey: (i) => rows[i]?.entry.path ?? i,
    // Where nothing is laid out (a test's document), a row keeps its estimate.
    measureElement: (element) => element.getBoundingClientRect().height || ROW_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const before = first ? first.start - top : 0;
  // The rows not listed yet take their room below: the scroll bar tells the whole folder's length
  // from the first page on. (Counted by the virtualizer instead, they cost the first page's
  // render as much again.)
  const notListed = (total - rows.length) * ROW_HEIGHT;
  const after = (last ? virtualizer.getTotalSize() - (last.end - top) : 0) + notListed;
  return (
    <DataTable className="file-table" caption={caption} aria-rowcount={total + 1}>
      <thead>
        <tr aria-rowindex={1}>
          <th scope="col" className="name-col">
            Name
          </th>
          <th scope="col">Sync state</th>
          <th scope="col">Size</th>
          <th scope="col" className="col-modified">
            Modified
          </th>
          <ActionsHeader />
        </tr>
      </thead>
      <tbody ref={body}>
        {before > 0 && <Spacer height={before} />}
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          const { entry } = row;
          return (
            <tr key={item.key} data-index={item.index} ref={virtualizer.measureElement} aria-rowindex={item.index + 2}>
              <th scope="row">
                <span className="name-cell">
                  {entry.isFolder ? (
                    <EntryIcon folder />
                  ) : (
                    <button type="button" className="thumb-button" aria-label={`Preview ${entry.name}`} onClick={() => actions.preview(entry)}>
                      <Thumbnail workspaceId={workspaceId} item={itemOf(entry)} size={36} />
                    </button>
                  )}
                  <NameButton entry={entry} actions={actions} />
                </span>
              </th>
              <td>
                <EntryState shown={row} />
              </td>
              <td>{entry.isFolder || entry.size === null ? '—' : formatBytes(entry.size)}</td>
              <td className="col-modified">{formatDate(entry.modifiedAt)}</td>
              <td className="actions">
                <EntryButtons entry={entry} actions={actions} />
              </td>
            </tr>
          );
        })}
        {after > 0 && <Spacer height={after} />}
      </tbody>
    </DataTable>
  );
}

/** Rows out of view or not listed yet, as the room they take: the scroll bar tells the folder's length. */
function Spacer({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" className="spacer-row">
      <td colSpan={5} style={{ height }} />
    </tr>
  );
}

function FileGrid({ workspaceId, cards, total, caption, actions }: { workspaceId: string; cards: Shown[]; total: number; caption: string; actions: EntryActions }) {
  const box = useRef<HTMLDivElement>(null);
  const top = useDocumentTop(box);
  const width = useWidth(box);
  const columns = Math.max(1, Math.floor((width + CARD_GAP) / (CARD_WIDTH + CARD_GAP)));
  const rowCount = Math.ceil(cards.length / columns);
  // The cards not listed yet leave their room below, as the list's rows do.
  const notListed = (Math.ceil(total / columns) - rowCount) * (CARD_HEIGHT + CARD_GAP);
  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => CARD_HEIGHT + CARD_GAP,
    overscan: CARD_OVERSCAN,
    scrollMargin: top,
    measureElement: (element) => element.getBoundingClientRect().height || CARD_HEIGHT + CARD_GAP,
  });
  return (
    <div ref={box} className="file-grid" role="list" aria-label={caption} style={{ height: virtualizer.getTotalSize() + notListed }}>
      {virtualizer.getVirtualItems().map((item) => (
        <div
          key={item.key}
          role="none"
          className="grid-row"
          data-index={item.index}
          ref={virtualizer.measureElement}
          style={{ transform: `translateY(${item.start - top}px)`, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
        >
          {cards.slice(item.index * columns, (item.index + 1) * columns).map((card, i) => (
            <FileCard key={card.entry.path} workspaceId={workspaceId} shown={card} position={item.index * columns + i + 1} total={total} actions={actions} />
          ))}
        </div>
      ))}
    </div>
  );
}

function FileCard({ workspaceId, shown, position, total, actions }: { workspaceId: string; shown: Shown; position: number; total: number; actions: EntryActions }) {
  const { entry } = shown;
  return (
    <div role="listitem" aria-label={entry.name} aria-posinset={position} aria-setsize={total} className="file-card">
      {entry.isFolder ? (
        <button type="button" className="thumb-button card-thumb" aria-label={`Folder ${entry.name}`} onClick={() => actions.enter(entry)}>
          <span className="thumb thumb-icon">
            <EntryIcon folder size={96} />
          </span>
        </button>
      ) : (
        <button type="button" className="thumb-button card-thumb" aria-label={`Preview ${entry.name}`} onClick={() => actions.preview(entry)}>
          <Thumbnail workspaceId={workspaceId} item={itemOf(entry)} size={128} />
        </button>
      )}
      <div className="card-text">
        {entry.isFolder ? <span className="file-name card-name">{entry.name}</span> : <NameButton entry={entry} actions={actions} />}
        <EntryState shown={shown} />
        {!entry.isFolder && entry.size !== null && <span className="muted small">{formatBytes(entry.size)}</span>}
      </div>
      <div className="actions card-actions">
        <EntryButtons entry={entry} actions={actions} />
      </div>
    </div>
  );
}

/** A file's thumbnail: by asset when it has one, else by path (a file not on the service yet gets its type's icon). */
const itemOf = (entry: FileEntry) => (entry.assetId ? { assetId: entry.assetId } : { path: entry.path });

function NameButton({ entry, actions }: { entry: FileEntry; actions: EntryActions }) {
  return (
    <button
      type="button"
      className="link card-name"
      aria-label={entry.isFolder ? `Folder ${entry.name}` : `${entry.name}: versions`}
      onClick={() => (entry.isFolder ? actions.enter(entry) : actions.versions(entry))}
    >
      {entry.name}
    </button>
  );
}

function EntryButtons({ entry, actions }: { entry: FileEntry; actions: EntryActions }): ReactNode {
  if (entry.state === 'remote-only') return null;
  return (
    <>
      {!entry.isFolder && (
        <button type="button" onClick={() => actions.open(entry)} aria-label={`Open ${entry.name}`}>
          Open
        </button>
      )}
      <button type="button" onClick={() => actions.reveal(entry)} aria-label={`Show ${entry.name} in folder`}>
        Show in folder
      </button>
      {actions.lock(entry)}
    </>
  );
}

/** The entry's sync state in words; a transfer under way shows how far it got. */
function EntryState({ shown }: { shown: Shown }) {
  const { text, tone, done } = entryStateOf(shown.entry, shown.transfer, shown.writing);
  return (
    <span className="entry-state">
      <span className={`state tone-${tone}`}>
        <StateIcon tone={tone} size={16} />
        {text}
      </span>
      {done !== null && <progress max={1} value={done} aria-label={`${shown.entry.name}: ${text}`} />}
    </span>
  );
}
