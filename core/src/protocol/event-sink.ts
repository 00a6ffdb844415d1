// Where events for the frontend go; the connection hub implements it, tests may record it.
import type { EventContent, EventName } from './index.js';

export interface EventSink {
  send<E extends EventName>(method: E, content: EventContent<E>): void;
  /** True while a frontend is connected to receive events. */
  readonly isConnected: boolean;
  /** Bytes of sent events still waiting to leave the socket; absent where unknown. Lets frequent events be dropped instead of queued. */
  readonly bufferedAmount?: number;
}

export const EVENT_SINK = Symbol('EventSink');
