import { useEffect } from 'react';
import { AppHeader } from './components/AppHeader';
import { ConnectingScreen } from './components/ConnectingScreen';
import { ConnectionLostBanner } from './components/ConnectionLostBanner';
import { Toasts } from './toasts';
import { ReplacedScreen } from './components/ReplacedScreen';
import { Sidebar } from './components/Sidebar';
import { connection, useConnectionStatus, useReloadOnNewVersion } from './connection';
import { DialogHost } from './dialogs';
import { JobsTray } from './jobs';
import { LibraryPage } from './library';
import { useRoute, type Route } from './navigation';
import { RecordingPage } from './recording';
import { SettingsPage } from './settings';
import { useLatestEvent } from './state/latest-events';
import { VideoPage } from './video';

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'library':
      return <LibraryPage key={route.section} section={route.section} />;
    case 'video':
      return <VideoPage key={route.id} id={route.id} />;
    case 'recording':
      return <RecordingPage />;
    case 'settings':
      return <SettingsPage tab={route.tab} />;
  }
}

export function App() {
  const status = useConnectionStatus();
  const route = useRoute();
  const state = useLatestEvent('State');
  const settings = useLatestEvent('Settings');
  const version = useLatestEvent('AppVersion')?.version;
  useReloadOnNewVersion();

  // Started in the root's effect, which runs after the children's: their event subscriptions exist by then.
  useEffect(() => connection.start(), []);

  return (
    <div className="app">
      <AppHeader version={version} status={status} />
      <div className="app__body">
        <Sidebar route={route} content={state?.content} recording={Boolean(state?.recording)} />
        <main className="app__main">
          {status === 'replaced' ? (
            <ReplacedScreen />
          ) : state && settings ? (
            <>
              {status !== 'open' && <ConnectionLostBanner />}
              <Page route={route} />
            </>
          ) : (
            <ConnectingScreen status={status} />
          )}
        </main>
        <JobsTray />
      </div>
      <DialogHost />
      <Toasts />
    </div>
  );
}
