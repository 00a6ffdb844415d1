// Where events for the frontend go; the connection hub implements it, tests may record it.
import type { EventContent, EventName } from '../protocol/index.js';

export interface EventSink {
  send<E extends EventName>(method: E, content: EventContent<E>): void;
  /** True while a frontend is connected to receive events. */
  readonly isConnected: boolean;
}

export const EVENT_SINK = Symbol('EventSink');
