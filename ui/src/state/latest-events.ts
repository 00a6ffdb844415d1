// The last content received for each event method. It listens from module load, before the
// connection starts, so a component that mounts late still sees Settings, State and the rest.
import type { EventContentMap, EventName } from '@keyframe/core/protocol';
import { useSyncExternalStore } from 'react';
import { SERVER_EVENT } from '../connection';

const latestContent = new Map<EventName, unknown>();
const listeners = new Set<() => void>();

window.addEventListener(SERVER_EVENT, ({ detail }) => {
  latestContent.set(detail.method, detail.content);
  for (const listener of listeners) listener();
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The content of the last `method` event, undefined until one arrives. */
export function useLatestEvent<E extends EventName>(method: E): EventContentMap[E] | undefined {
  // Stored under its own method, so the content has that method's type.
  return useSyncExternalStore(subscribe, () => latestContent.get(method) as EventContentMap[E] | undefined);
}
