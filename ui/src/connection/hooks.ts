// React bindings: the connection status, and a subscription to one event method.
import type { EventContentMap, EventName } from '@keyframe/core/protocol';
import { useCallback, useEffect, useEffectEvent, useRef, useState, useSyncExternalStore } from 'react';
import { connection } from './connection';
import type { ConnectionStatus } from './connection-client';
import { SERVER_EVENT } from './server-event';

export function useConnectionStatus(): ConnectionStatus {
  return useSyncExternalStore(connection.subscribeStatus, connection.getStatus);
}

/** Calls `handler` with the content of every `method` event received while the component is mounted. */
export function useServerEvent<E extends EventName>(method: E, handler: (content: EventContentMap[E]) => void): void {
  const onEvent = useEffectEvent(handler);
  useEffect(() => {
    const listener = ({ detail }: CustomEvent<{ method: EventName; content: unknown }>) => {
      // Matching `method` guarantees the content type; the compiler cannot follow a generic discriminant.
      if (detail.method === method) onEvent(detail.content as EventContentMap[E]);
    };
    window.addEventListener(SERVER_EVENT, listener);
    return () => window.removeEventListener(SERVER_EVENT, listener);
  }, [method]);
}

export interface QueuedEvent<E extends EventName> {
  id: number;
  content: EventContentMap[E];
}

/** The `method` events received while mounted, oldest first (at most `limit`), and a way to drop one. */
export function useEventQueue<E extends EventName>(method: E, limit = Infinity): [QueuedEvent<E>[], (id: number) => void] {
  const [queue, setQueue] = useState<QueuedEvent<E>[]>([]);
  const nextId = useRef(0);
  useServerEvent(method, (content) => {
    const id = nextId.current++;
    setQueue((current) => [...current, { id, content }].slice(-limit));
  });
  const remove = useCallback((id: number) => setQueue((current) => current.filter((item) => item.id !== id)), []);
  return [queue, remove];
}
