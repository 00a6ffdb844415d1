// Where events for the frontend go; the connection hub implements it, tests may record it.
import type { EventContent, EventName, State } from './index.js';
import type { JsonPatchOperation } from './json-patch.js';

/** A State as the publisher sends it: numbered, with the way from the previous one when it is not a full resend. */
export interface StateRevision {
  readonly revision: number;
  /** Absent when every connection must get the full State (NewConnection, RequestState). */
  readonly since?: {
    readonly revision: number;
    /** Computed only when a connection wants it. */
    patch(): JsonPatchOperation[];
  };
}

export interface EventSink {
  send<E extends EventName>(method: E, content: EventContent<E>): void;
  /** A State for connections that may take it as a patch (Incremental State); without it, State goes through `send`. */
  sendState?(state: State, revision: StateRevision): void;
  /** True while a frontend is connected to receive events. */
  readonly isConnected: boolean;
  /** Bytes of sent events still waiting to leave the socket; absent where unknown. Lets frequent events be dropped instead of queued. */
  readonly bufferedAmount?: number;
}

export const EVENT_SINK = Symbol('EventSink');
