import { useId, useState, type FormEvent } from 'react';
import type { RemoteWorkspace, SettingsView } from '../../../shared/ipc.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { useServices, useUiState } from '../store/context.js';
import type { Loadable } from '../store/store.js';
import { useQuery } from '../store/use-query.js';
import { FolderPicker } from './FolderPicker.js';

export function SettingsScreen() {
  const { result, reload } = useQuery('getSettings', {});
  // Sign-in and saves answer with the new settings: show them without asking again.
  const [latest, setLatest] = useState<SettingsView | null>(null);
  const settings: Loadable<SettingsView> = latest ? { kind: 'ready', value: latest } : result;
  return (
    <section aria-labelledby="settings-heading">
      <ScreenHeading id="settings-heading">Settings</ScreenHeading>
      <LoadableView value={settings} what="your settings" onRetry={reload}>
        {(value) => (
          <>
            <AccountSection settings={value} onChange={setLatest} />
            {/* The forms start from the settings of the account signed in; after a save they already show them. */}
            {value.signedIn && (
              <>
                <SyncSection key={`sync:${value.baseUrl}:${value.accountId}`} settings={value} onChange={setLatest} />
                <WorkspacesSection key={`ws:${value.baseUrl}:${value.accountId}`} settings={value} onChange={setLatest} />
              </>
            )}
          </>
        )}
      </LoadableView>
    </section>
  );
}

type OnChange = (settings: SettingsView) => void;

function AccountSection({ settings, onChange }: { settings: SettingsView; onChange: OnChange }) {
  const { bridge } = useServices();
  const { outcome, run } = useAction();
  const [form, setForm] = useState({ baseUrl: settings.baseUrl ?? '', accountId: settings.accountId ?? '', key: '', secret: '' });
  const ids = { baseUrl: useId(), accountId: useId(), key: useId(), secret: useId() };

  const signIn = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      onChange(await bridge.invoke('signIn', form));
      setForm((f) => ({ ...f, key: '', secret: '' }));
      return 'Signed in.';
    });
  };

  return (
    <section aria-labelledby="account-heading" className="panel">
      <h3 id="account-heading">Account</h3>
      {settings.signedIn ? (
        <>
          <p>
            Signed in
            {settings.baseUrl && (
              <>
                {' '}
                to <span className="file-name">{settings.baseUrl}</span>
              </>
            )}
            {settings.accountId && (
              <>
                , account <code>{settings.accountId}</code>
              </>
            )}
            , on this computer ({settings.deviceName}).
          </p>
          <button type="button" onClick={() => void run(async () => (onChange(await bridge.invoke('signOut', {})), 'Signed out.'))}>
            Sign out
          </button>
        </>
      ) : (
        <form onSubmit={signIn} className="form-grid" aria-labelledby="account-heading">
          <label htmlFor={ids.baseUrl}>Service address</label>
          <input id={ids.baseUrl} type="url" required placeholder="https://assets.example.com" value={form.baseUrl} onChange={(e) => setForm({ ...form, baseUrl: e.target.value })} />
          <label htmlFor={ids.accountId}>Account ID</label>
          <input id={ids.accountId} required value={form.accountId} onChange={(e) => setForm({ ...form, accountId: e.target.value })} />
          <label htmlFor={ids.key}>API key</label>
          <input id={ids.key} required autoComplete="off" value={form.key} onChange={(e) => setForm({ ...form, key: e.target.value })} />
          <label htmlFor={ids.secret}>API secret</label>
          <input id={ids.secret} type="password" required autoComplete="off" value={form.secret} onChange={(e) => setForm({ ...form, secret: e.target.value })} />
          <div />
          <button type="submit" className="primary" disabled={outcome.kind === 'busy'}>
            Sign in
          </button>
        </form>
      )}
      <ActionStatus outcome={outcome} />
    </section>
  );
}

const KB = 1024;

/** A whole number typed in a field, within its range; else the field's message. */
function wholeIn(typed: string, min: number, max: number, message: string): number {
  const value = Number(typed);
  if (typed.trim() === '' || !Number.isInteger(value) || value < min || value > max) throw new Error(message);
  return value;
}

function SyncSection({ settings, onChange }: { settings: SettingsView; onChange: OnChange }) {
  const { bridge, store } = useServices();
  const { status } = useUiState();
  const { outcome, run } = useAction();
  const [root, setRoot] = useState(settings.root ?? '');
  const [poll, setPoll] = useState(String(settings.pollIntervalSeconds));
  const [limit, setLimit] = useState(settings.bandwidthLimit === null ? '' : String(Math.round(settings.bandwidthLimit / KB)));
  const [launchAtLogin, setLaunchAtLogin] = useState(settings.launchAtLogin);
  const [downloads, setDownloads] = useState(String(settings.maxDownloads));
  const [uploads, setUploads] = useState(String(settings.maxUploads));
  const [prefetch, setPrefetch] = useState(settings.prefetchThumbnails);
  const [cacheMb, setCacheMb] = useState(String(settings.mediaCacheMiB));
  const ids = {
    root: useId(),
    poll: useId(),
    limit: useId(),
    login: useId(),
    limitHelp: useId(),
    downloads: useId(),
    uploads: useId(),
    prefetch: useId(),
    cache: useId(),
    cacheHelp: useId(),
  };
  const paused = status.kind === 'ready' && status.value.paused;

  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const seconds = Number(poll);
      const kb = limit.trim() === '' ? null : Number(limit);
      if (!Number.isInteger(seconds) || seconds < 5 || seconds > 3600) throw new Error('Check for changes every 5 to 3600 seconds.');
      if (kb !== null && (!Number.isInteger(kb) || kb <= 0)) throw new Error('The bandwidth limit is a whole number of KB/s, or empty for no limit.');
      const maxDownloads = wholeIn(downloads, 1, 32, 'Downloads at once: a whole number from 1 to 32.');
      const maxUploads = wholeIn(uploads, 1, 16, 'Uploads at once: a whole number from 1 to 16.');
      const mediaCacheMiB = wholeIn(cacheMb, 16, 65_536, 'The picture cache holds 16 to 65536 MB.');
      try {
        onChange(
          await bridge.invoke('updateSettings', {
            pollIntervalSeconds: seconds,
            bandwidthLimit: kb === null ? null : kb * KB,
            launchAtLogin,
            maxDownloads,
            maxUploads,
            prefetchThumbnails: prefetch,
            mediaCacheMiB,
            ...(root.trim() && root.trim() !== settings.root ? { root: root.trim() } : {}),
          }),
        );
      } catch (error) {
        // Nothing was saved: the box shows what Asset Sync will really do at login. The fields
        // keep what was typed, to be corrected and saved again.
        setLaunchAtLogin(settings.launchAtLogin);
        throw error;
      }
      return 'Settings saved.';
    });
  };

  return (
    <section aria-labelledby="sync-heading" className="panel">
      <h3 id="sync-heading">Sync</h3>
      <p className="actions">
        <span>{paused ? 'Sync is paused.' : 'Sync is running.'}</span>
        <button
          type="button"
          disabled={status.kind !== 'ready'}
          onClick={() =>
            void run(async () => {
              const next = await bridge.invoke(paused ? 'resume' : 'pause', {});
              store.applyStatus(next);
              return next.paused ? 'Sync paused.' : 'Sync resumed.';
            })
          }
        >
          {paused ? 'Resume sync' : 'Pause sync'}
        </button>
      </p>
      <form onSubmit={save} className="form-grid" aria-labelledby="sync-heading">
        <label htmlFor={ids.root}>Sync folder</label>
        <input id={ids.root} value={root} onChange={(e) => setRoot(e.target.value)} spellCheck={false} />
        <label htmlFor={ids.poll}>Check the service every (seconds)</label>
        <input id={ids.poll} type="number" min={5} max={3600} step={1} required value={poll} onChange={(e) => setPoll(e.target.value)} />
        <label htmlFor={ids.limit}>Bandwidth limit (KB/s)</label>
        <div>
          <input id={ids.limit} type="number" min={1} step={1} value={limit} onChange={(e) => setLimit(e.target.value)} aria-describedby={ids.limitHelp} />
          <p id={ids.limitHelp} className="muted small">
            Leave empty for no limit.
          </p>
        </div>
        <label htmlFor={ids.downloads}>Downloads at once</label>
        <input id={ids.downloads} type="number" min={1} max={32} step={1} required value={downloads} onChange={(e) => setDownloads(e.target.value)} />
        <label htmlFor={ids.uploads}>Uploads at once</label>
        <input id={ids.uploads} type="number" min={1} max={16} step={1} required value={uploads} onChange={(e) => setUploads(e.target.value)} />
        <label htmlFor={ids.cache}>Picture cache size (MB)</label>
        <div>
          <input id={ids.cache} type="number" min={16} max={65536} step={1} required value={cacheMb} onChange={(e) => setCacheMb(e.target.value)} aria-describedby={ids.cacheHelp} />
          <p id={ids.cacheHelp} className="muted small">
            Thumbnails and previews kept on this computer; the least recently seen go first.
          </p>
        </div>
        <div />
        <label className="checkbox" htmlFor={ids.prefetch}>
          <input id={ids.prefetch} type="checkbox" checked={prefetch} onChange={(e) => setPrefetch(e.target.checked)} /> Make thumbnails as files sync
        </label>
        <div />
        <label className="checkbox" htmlFor={ids.login}>
          <input id={ids.login} type="checkbox" checked={launchAtLogin} onChange={(e) => setLaunchAtLogin(e.target.checked)} /> Start Asset Sync when I log in
        </label>
        <div />
        <button type="submit" className="primary" disabled={outcome.kind === 'busy'}>
          Save settings
        </button>
      </form>
      <ActionStatus outcome={outcome} />
    </section>
  );
}

function WorkspacesSection({ settings, onChange }: { settings: SettingsView; onChange: OnChange }) {
  const { result, reload } = useQuery('listRemoteWorkspaces', {});
  return (
    <section aria-labelledby="workspaces-settings-heading" className="panel">
      <h3 id="workspaces-settings-heading">Workspaces and folders</h3>
      <LoadableView value={result} what="the account's workspaces" onRetry={reload}>
        {(remote) => <WorkspaceChoices remote={remote} settings={settings} onChange={onChange} />}
      </LoadableView>
    </section>
  );
}

function WorkspaceChoices({ remote, settings, onChange }: { remote: RemoteWorkspace[]; settings: SettingsView; onChange: OnChange }) {
  const { bridge } = useServices();
  const { outcome, run } = useAction();
  const [chosen, setChosen] = useState(() => new Map(settings.workspaces.map((w) => [w.id, w.excluded])));
  const [openPicker, setOpenPicker] = useState<string | null>(null);
  if (remote.length === 0) return <p className="muted">This account has no workspace yet. Create one on the service, then open Settings again to choose it.</p>;

  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Map(current);
      if (on) next.set(id, current.get(id) ?? []);
      else next.delete(id);
      return next;
    });
  const save = () =>
    void run(async () => {
      onChange(await bridge.invoke('updateSettings', { workspaces: [...chosen].map(([id, excluded]) => ({ id, excluded })) }));
      return 'Workspace choices saved.';
    });

  return (
    <>
      <ul className="choice-list">
        {remote.map((w) => {
          const excluded = chosen.get(w.id);
          return (
            <li key={w.id}>
              <label className="checkbox">
                <input type="checkbox" checked={excluded !== undefined} onChange={(e) => toggle(w.id, e.target.checked)} /> Sync {w.name}
              </label>
              {excluded !== undefined && (
                <>
                  <button type="button" className="link" aria-expanded={openPicker === w.id} onClick={() => setOpenPicker(openPicker === w.id ? null : w.id)}>
                    Choose folders{excluded.length > 0 ? ` (${excluded.length} left out)` : ''}
                  </button>
                  {openPicker === w.id && (
                    <FolderPicker
                      workspaceId={w.id}
                      workspaceName={w.name}
                      excluded={excluded}
                      onChange={(next) => setChosen((current) => new Map(current).set(w.id, next))}
                    />
                  )}
                </>
              )}
            </li>
          );
        })}
      </ul>
      <button type="button" className="primary" onClick={save} disabled={outcome.kind === 'busy'}>
        Save workspaces
      </button>
      <ActionStatus outcome={outcome} />
    </>
  );
}
