import { useId, useState } from 'react';
import type { MediaPreview, VersionInfo } from '../../../shared/ipc.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { ActionsHeader, DataTable } from '../components/DataTable.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { CATEGORY_NAMES, TypeIcon } from '../components/TypeIcon.js';
import { formatBytes, formatDate, formatDuration } from '../format.js';
import { useServices } from '../store/context.js';
import { baseName, type ScreenRoute } from '../store/route.js';
import type { Loadable } from '../store/store.js';
import { useQuery } from '../store/use-query.js';
import { SaveCopyButton, useMakeCurrent } from './VersionActions.js';

type Mode = 'side' | 'wipe' | 'onion';

const MODES: Array<{ mode: Mode; label: string }> = [
  { mode: 'side', label: 'Side by side' },
  { mode: 'wipe', label: 'Slider' },
  { mode: 'onion', label: 'Onion skin' },
];

/**
 * Two versions of one file, chosen freely (the one before the newest and the newest, until the
 * user picks): side by side, or for pictures one over the other with a slider that wipes between
 * them or the top one faded (onion skin); their metadata side by side; and from here "Make
 * current" and "Save a copy" of either.
 */
export function CompareScreen({ workspaceId, path, a, b }: { workspaceId: string; path: string; a: string | null; b: string | null }) {
  const { store } = useServices();
  const { result, reload } = useQuery('listVersions', { workspaceId, path });
  const name = baseName(path);
  return (
    <section aria-labelledby="compare-heading">
      <ScreenHeading id="compare-heading">Compare versions of {name}</ScreenHeading>
      <p className="muted">
        <button type="button" className="link" onClick={() => store.navigate({ view: 'versions', workspaceId, path, assetId: null })}>
          Back to the versions of {name}
        </button>
      </p>
      <LoadableView value={result} what="the versions" onRetry={reload}>
        {(versions) => {
          const live = [...versions].filter((v) => !v.deleted).sort((x, y) => x.number - y.number);
          if (live.length < 2) return <p className="muted">{name} has only one version: there is nothing to compare yet.</p>;
          const newest = live[live.length - 1] as VersionInfo;
          const right = live.find((v) => v.id === b) ?? newest;
          const left = live.find((v) => v.id === a) ?? [...live].reverse().find((v) => v.id !== right.id) ?? newest;
          return <Comparison workspaceId={workspaceId} path={path} versions={live} left={left} right={right} onChanged={reload} />;
        }}
      </LoadableView>
    </section>
  );
}

function Comparison({ workspaceId, path, versions, left, right, onChanged }: { workspaceId: string; path: string; versions: VersionInfo[]; left: VersionInfo; right: VersionInfo; onChanged: () => void }) {
  const { store } = useServices();
  const [mode, setMode] = useState<Mode>('side');
  const leftQuery = useQuery('mediaPreview', { workspaceId, item: { path, versionId: left.id } });
  const rightQuery = useQuery('mediaPreview', { workspaceId, item: { path, versionId: right.id } });
  const leftPreview = leftQuery.result;
  const rightPreview = rightQuery.result;
  const pictures = isPicture(leftPreview) && isPicture(rightPreview);
  const shownMode = pictures ? mode : 'side';
  const choose = (side: 'a' | 'b', id: string) => {
    const route: ScreenRoute = { view: 'compare', workspaceId, path, a: side === 'a' ? id : left.id, b: side === 'b' ? id : right.id };
    store.navigate(route);
  };
  return (
    <>
      <div className="compare-tools">
        <VersionPicker label="Left" versions={versions} value={left.id} onChange={(id) => choose('a', id)} />
        <VersionPicker label="Right" versions={versions} value={right.id} onChange={(id) => choose('b', id)} />
        {pictures && (
          <fieldset className="segmented">
            <legend className="visually-hidden">How to compare</legend>
            {MODES.map((m) => (
              <label key={m.mode} className={shownMode === m.mode ? 'checked' : undefined}>
                <input type="radio" name="compare-mode" value={m.mode} checked={shownMode === m.mode} onChange={() => setMode(m.mode)} />
                {m.label}
              </label>
            ))}
          </fieldset>
        )}
      </div>
      {shownMode === 'side' ? (
        <div className="compare-side">
          <Pane version={left} preview={leftPreview} onRetry={leftQuery.reload} />
          <Pane version={right} preview={rightPreview} onRetry={rightQuery.reload} />
        </div>
      ) : (
        <Overlay mode={shownMode} left={left} right={right} leftUrl={urlOf(leftPreview)} rightUrl={urlOf(rightPreview)} />
      )}
      <MetadataTable workspaceId={workspaceId} path={path} left={left} right={right} leftPreview={leftPreview} rightPreview={rightPreview} onChanged={onChanged} />
    </>
  );
}

const isPicture = (preview: Loadable<MediaPreview>): boolean => preview.kind === 'ready' && preview.value.url !== null && (preview.value.view === 'image' || preview.value.view === 'pdf');
const urlOf = (preview: Loadable<MediaPreview>): string => (preview.kind === 'ready' ? (preview.value.url ?? '') : '');

function VersionPicker({ label, versions, value, onChange }: { label: string; versions: VersionInfo[]; value: string; onChange: (id: string) => void }) {
  const id = useId();
  return (
    <p className="picker">
      <label htmlFor={id}>{label}</label>{' '}
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {[...versions].reverse().map((v) => (
          <option key={v.id} value={v.id}>
            Version {v.number}
            {v.current ? ' (current)' : ''}
          </option>
        ))}
      </select>
    </p>
  );
}

function Pane({ version, preview, onRetry }: { version: VersionInfo; preview: Loadable<MediaPreview>; onRetry: () => void }) {
  return (
    <figure className="compare-pane">
      <div className="compare-stage">
        <LoadableView value={preview} what={`version ${version.number}`} onRetry={onRetry}>
          {(p) => <PaneContent preview={p} number={version.number} />}
        </LoadableView>
      </div>
      <figcaption>
        Version {version.number}
        {version.current && <span className="badge">current</span>}
      </figcaption>
    </figure>
  );
}

function PaneContent({ preview, number }: { preview: MediaPreview; number: number }) {
  const alt = `Version ${number}`;
  if (preview.url && (preview.view === 'image' || preview.view === 'pdf')) return <img src={preview.url} alt={alt} draggable={false} />;
  if (preview.url && preview.view === 'video') return <video src={preview.url} controls preload="metadata" aria-label={alt} />;
  if (preview.url && preview.view === 'audio') return <audio src={preview.url} controls preload="metadata" aria-label={alt} />;
  return <TypeIcon category={preview.type.category} format={preview.type.format} size={96} />;
}

/**
 * The right version over the left one in one box: the slider uncovers it from the left edge
 * (wipe), or sets how opaque it is (onion skin). The slider is a range input: arrows and
 * Home/End move it.
 */
function Overlay({ mode, left, right, leftUrl, rightUrl }: { mode: 'wipe' | 'onion'; left: VersionInfo; right: VersionInfo; leftUrl: string; rightUrl: string }) {
  const [position, setPosition] = useState(50);
  const sliderId = useId();
  const top = mode === 'wipe' ? { clipPath: `inset(0 0 0 ${position}%)` } : { opacity: position / 100 };
  return (
    <figure className="compare-overlay">
      <div className="compare-stage overlay-stage" data-testid="overlay-stage">
        <img src={leftUrl} alt={`Version ${left.number}`} draggable={false} />
        <img src={rightUrl} alt={`Version ${right.number}`} draggable={false} className="overlay-top" style={top} data-testid="overlay-top" />
        {mode === 'wipe' && <span className="wipe-line" style={{ left: `${position}%` }} aria-hidden="true" />}
      </div>
      <figcaption className="overlay-caption">
        <span>Version {left.number}</span>
        <label htmlFor={sliderId} className="visually-hidden">
          {mode === 'wipe' ? `Slider between version ${left.number} and version ${right.number}` : `Opacity of version ${right.number} over version ${left.number}`}
        </label>
        <input id={sliderId} type="range" min={0} max={100} value={position} onChange={(e) => setPosition(Number(e.target.value))} aria-valuetext={mode === 'wipe' ? `${100 - position}% of version ${right.number} shown` : `${position}% opaque`} />
        <span>Version {right.number}</span>
      </figcaption>
    </figure>
  );
}

function MetadataTable({
  workspaceId,
  path,
  left,
  right,
  leftPreview,
  rightPreview,
  onChanged,
}: {
  workspaceId: string;
  path: string;
  left: VersionInfo;
  right: VersionInfo;
  leftPreview: Loadable<MediaPreview>;
  rightPreview: Loadable<MediaPreview>;
  onChanged: () => void;
}) {
  const { outcome, run } = useAction();
  const makeCurrent = useMakeCurrent(workspaceId, path, run, onChanged);
  const sides = [
    { version: left, preview: leftPreview.kind === 'ready' ? leftPreview.value : null },
    { version: right, preview: rightPreview.kind === 'ready' ? rightPreview.value : null },
  ];
  const rows: Array<[string, (side: (typeof sides)[number]) => string]> = [
    ['Made by', ({ version }) => (version.mine ? `${version.author} (you)` : version.author)],
    ['When', ({ version }) => formatDate(version.createdAt)],
    ['Size', ({ version }) => formatBytes(version.size)],
    ['Type', ({ preview }) => (preview ? `${CATEGORY_NAMES[preview.type.category]}${preview.type.format ? ` (${preview.type.format.toUpperCase()})` : ''}` : '—')],
    ['Dimensions', ({ preview }) => (preview?.width && preview.height && preview.view !== 'pdf' ? `${preview.width} × ${preview.height} px` : '—')],
    ['Length', ({ preview }) => (preview?.durationSeconds != null ? formatDuration(preview.durationSeconds) : '—')],
    ['Note', ({ version }) => version.description ?? '—'],
  ];
  // A row that says nothing of either (the length of two pictures) is left out.
  const shownRows = rows.filter(([, value]) => sides.some((side) => value(side) !== '—'));
  return (
    <>
      <DataTable className="compare-table" caption={`Version ${left.number} and version ${right.number} side by side`}>
        <thead>
          <tr>
            <td />
            {sides.map(({ version }) => (
              <th key={version.id} scope="col">
                Version {version.number}
                {version.current && <span className="badge">current</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shownRows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {sides.map((side) => (
                <td key={side.version.id}>{value(side)}</td>
              ))}
            </tr>
          ))}
          <tr>
            <ActionsHeader scope="row" />
            {sides.map(({ version }) => (
              <td key={version.id} className="actions">
                {makeCurrent.question(version) ?? (
                  <>
                    {makeCurrent.button(version, outcome.kind === 'busy')}
                    <SaveCopyButton workspaceId={workspaceId} path={path} version={version} run={run} />
                  </>
                )}
              </td>
            ))}
          </tr>
        </tbody>
      </DataTable>
      <ActionStatus outcome={outcome} />
    </>
  );
}
