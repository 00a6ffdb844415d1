import { useEffect } from 'react';
import { AppHeader } from './components/AppHeader';
import { ConnectingScreen } from './components/ConnectingScreen';
import { ConnectionLostBanner } from './components/ConnectionLostBanner';
import { Dashboard } from './components/Dashboard';
import { ModalHost } from './components/ModalHost';
import { RejectionToasts } from './components/RejectionToasts';
import { ReplacedScreen } from './components/ReplacedScreen';
import { connection, useConnectionStatus } from './connection';
import { useLatestEvent } from './state/latest-events';

export function App() {
  const status = useConnectionStatus();
  const state = useLatestEvent('State');
  const settings = useLatestEvent('Settings');
  const version = useLatestEvent('AppVersion')?.version;

  // Started in the root's effect, which runs after the children's: their event subscriptions exist by then.
  useEffect(() => connection.start(), []);

  const connected = status === 'open';
  return (
    <div className="app">
      <AppHeader version={version} status={status} />
      <main className="app__main">
        {status === 'replaced' ? (
          <ReplacedScreen />
        ) : state && settings ? (
          <>
            {!connected && <ConnectionLostBanner />}
            <Dashboard state={state} settings={settings} connected={connected} />
          </>
        ) : (
          <ConnectingScreen status={status} />
        )}
      </main>
      <ModalHost />
      <RejectionToasts />
    </div>
  );
}
