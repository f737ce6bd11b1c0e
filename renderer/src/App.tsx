import { useEffect } from 'react';
import { ConnectionNotice } from './components/ConnectionNotice.js';
import { HeaderState } from './components/HeaderState.js';
import { FilesScreen } from './screens/FilesScreen.js';
import { ConflictsScreen } from './screens/ConflictsScreen.js';
import { ReviewsScreen } from './screens/ReviewsScreen.js';
import { SettingsScreen } from './screens/SettingsScreen.js';
import { StatusScreen } from './screens/StatusScreen.js';
import { CompareScreen } from './screens/CompareScreen.js';
import { PreviewOverlay } from './screens/PreviewOverlay.js';
import { VersionsScreen } from './screens/VersionsScreen.js';
import { useServices, useUiState } from './store/context.js';
import { screenOf, titleOf, type Route, type ScreenRoute, type View } from './store/route.js';
import { useTheme } from './theme.js';

const NAV: Array<{ view: View; label: string; to: Route }> = [
  { view: 'status', label: 'Status', to: { view: 'status' } },
  { view: 'files', label: 'Files', to: { view: 'files', workspaceId: null, folder: '' } },
  { view: 'reviews', label: 'Reviews', to: { view: 'reviews' } },
  { view: 'conflicts', label: 'Conflicts', to: { view: 'conflicts' } },
  { view: 'settings', label: 'Settings', to: { view: 'settings' } },
];

export function App() {
  const { store } = useServices();
  useEffect(() => store.start(), [store]);
  const { route, connection } = useUiState();
  const screen = screenOf(route);
  useEffect(() => {
    document.title = titleOf(route);
  }, [route]);
  // Files, versions, comparisons and previews all belong to the Files section.
  const section: View = screen.view === 'versions' || screen.view === 'compare' ? 'files' : screen.view;
  return (
    <>
    <div className="app" inert={route.view === 'preview'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <nav aria-label="Main" className="main-nav">
        <ul>
          {NAV.map((item) => (
            <li key={item.view}>
              <NavButton item={item} current={section === item.view} />
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} className={section === 'files' ? 'wide' : undefined}>
        <ConnectionNotice connection={connection} />
        <Screen route={screen} />
      </main>
    </div>
    {route.view === 'preview' && <PreviewOverlay key={[route.workspaceId, route.path, route.assetId, route.versionId].join('\n')} route={route} />}
    </>
  );
}

function NavButton({ item, current }: { item: (typeof NAV)[number]; current: boolean }) {
  const { store } = useServices();
  const { reviews, status } = useUiState();
  const unread = item.view === 'reviews' && reviews.kind === 'ready' ? [...reviews.value.reviewRequests, ...reviews.value.changeRequests].filter((r) => !r.read).length : 0;
  const conflicts = item.view === 'conflicts' && status.kind === 'ready' ? status.value.workspaces.flatMap((w) => w.problems).filter((p) => p.kind === 'conflict').length : 0;
  return (
    <button type="button" className="nav-button" aria-current={current ? 'page' : undefined} onClick={() => store.navigate(item.to)}>
      {item.label}
      {unread > 0 && (
        <>
          <span className="visually-hidden">, {unread} new</span>
          <span className="badge" aria-hidden="true">
            {unread}
          </span>
        </>
      )}
      {conflicts > 0 && (
        <>
          <span className="visually-hidden">, {conflicts} to resolve</span>
          <span className="badge badge-warn" aria-hidden="true">
            {conflicts}
          </span>
        </>
      )}
    </button>
  );
}

function Header() {
  const { theme, toggle } = useTheme();
  return (
    <header className="app-header">
      <h1>Asset Sync</h1>
      <HeaderState />
      <button type="button" className="theme-toggle" aria-pressed={theme === 'dark'} onClick={toggle}>
        Dark theme
      </button>
    </header>
  );
}

function Screen({ route }: { route: ScreenRoute }) {
  switch (route.view) {
    case 'status':
      return <StatusScreen />;
    case 'files':
      return <FilesScreen workspaceId={route.workspaceId} folder={route.folder} />;
    case 'versions':
      return <VersionsScreen key={`${route.workspaceId}:${route.path ?? route.assetId}`} workspaceId={route.workspaceId} path={route.path} assetId={route.assetId} versionId={route.versionId ?? null} />;
    case 'compare':
      return <CompareScreen key={`${route.workspaceId}:${route.path}`} workspaceId={route.workspaceId} path={route.path} a={route.a} b={route.b} />;
    case 'reviews':
      return <ReviewsScreen focus={route.focus} />;
    case 'conflicts':
      return <ConflictsScreen focusPath={route.path} />;
    case 'settings':
      return <SettingsScreen />;
  }
}
