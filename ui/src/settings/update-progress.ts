// The update in flight as the backend last described it on the current connection. The backend tells
// every new connection where an update stands, and nothing when none is in flight; so what a previous
// connection heard (an update ready before the service restarted into it) is forgotten when it ends.
import type { EventContentMap } from '@keyframe/core/protocol';
import { useSyncExternalStore } from 'react';
import { connection, SERVER_EVENT } from '../connection';

type UpdateProgress = EventContentMap['UpdateProgress'];

let latest: UpdateProgress | undefined;
const listeners = new Set<() => void>();
const changed = (progress: UpdateProgress | undefined) => {
  latest = progress;
  for (const listener of listeners) listener();
};

// From module load, before the Updates tab is first shown.
window.addEventListener(SERVER_EVENT, ({ detail }) => {
  if (detail.method === 'UpdateProgress') changed(detail.content);
});
connection.subscribeStatus(() => {
  if (connection.getStatus() !== 'open' && latest !== undefined) changed(undefined);
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The last `UpdateProgress` of the current connection, undefined when it sent none. */
export function useUpdateProgress(): UpdateProgress | undefined {
  return useSyncExternalStore(subscribe, () => latest);
}
