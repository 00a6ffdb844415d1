import { connection, type ConnectionStatus } from '../connection';

/** Shown until the first State and Settings arrive. */
export function ConnectingScreen({ status }: { status: ConnectionStatus }) {
  const unreachable = status === 'closed';
  return (
    <section className="notice" aria-busy={!unreachable}>
      {!unreachable && <span className="spinner" aria-hidden="true" />}
      <h2 className="notice__title">{unreachable ? 'Keyframe is not reachable' : 'Connecting to Keyframe…'}</h2>
      {unreachable && (
        <>
          <p className="notice__text">
            Nothing answered at <code>{connection.url}</code>. Retrying every 3 seconds.
          </p>
          <button type="button" className="button" onClick={() => connection.reconnect()}>
            Retry now
          </button>
        </>
      )}
    </section>
  );
}
