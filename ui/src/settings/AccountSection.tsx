import { useId, useState } from 'react';
import { connection, useServerEvent } from '../connection';
import { SettingsGroup } from './fields';
import type { SectionProps } from './section-props';

/**
 * Sign in with the tokens of the identity provider, or sign out. The backend never sends tokens
 * back, so the page cannot tell whether someone is signed in; it says what it last asked for.
 */
export function AccountSection({ connected }: SectionProps) {
  const [accessToken, setAccessToken] = useState('');
  const [refreshToken, setRefreshToken] = useState('');
  const [lastRequest, setLastRequest] = useState<'signed-in' | 'signed-out'>();
  const accessId = useId();
  const refreshId = useId();
  const complete = accessToken.trim() !== '' && refreshToken.trim() !== '';
  // A refusal (the tokens could not be stored) is shown as a toast; the status must not claim otherwise.
  useServerEvent('CommandRejected', ({ method }) => {
    if (method === 'Login' || method === 'Logout') setLastRequest(undefined);
  });

  return (
    <SettingsGroup
      title="Account"
      description="Uploads use your account. Paste the tokens of a sign-in session; they are stored by Keyframe, never shown again."
    >
      <form
        className="account-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!complete || !connection.send('Login', { accessToken: accessToken.trim(), refreshToken: refreshToken.trim() })) return;
          setAccessToken('');
          setRefreshToken('');
          setLastRequest('signed-in');
        }}
      >
        <label className="setting-row__label" htmlFor={accessId}>
          Access token
        </label>
        <input
          id={accessId}
          className="input"
          type="password"
          autoComplete="off"
          value={accessToken}
          onChange={(event) => setAccessToken(event.target.value)}
        />
        <label className="setting-row__label" htmlFor={refreshId}>
          Refresh token
        </label>
        <input
          id={refreshId}
          className="input"
          type="password"
          autoComplete="off"
          value={refreshToken}
          onChange={(event) => setRefreshToken(event.target.value)}
        />
        <div className="account-form__actions">
          <button type="submit" className="button button--primary" disabled={!connected || !complete}>
            Sign in
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={!connected}
            onClick={() => {
              if (connection.send('Logout')) setLastRequest('signed-out');
            }}
          >
            Sign out
          </button>
          {lastRequest && (
            <span className="account-form__status" role="status">
              {lastRequest === 'signed-in' ? 'Signed in.' : 'Signed out.'}
            </span>
          )}
        </div>
      </form>
    </SettingsGroup>
  );
}
