import { connection } from '../connection';

/** Another window took over the connection; reconnecting would take it back, so only the user may. */
export function ReplacedScreen() {
  return (
    <section className="notice">
      <h2 className="notice__title">Opened in another window</h2>
      <p className="notice__text">Keyframe is connected to another window or tab. Only one can be connected at a time.</p>
      <button type="button" className="button button--primary" autoFocus onClick={() => connection.reconnect()}>
        Reconnect here
      </button>
    </section>
  );
}
