/** Over stale data while the connection is being re-established. */
export function ConnectionLostBanner() {
  return (
    <div className="banner" role="status">
      <span className="spinner spinner--small" aria-hidden="true" />
      Connection to Keyframe lost. Reconnecting…
    </div>
  );
}
