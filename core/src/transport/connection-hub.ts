// The one active frontend connection. A new connection replaces the previous one, which is closed
// with a code and reason that say so; events always go to the newest. A connection whose frontend
// stops reading is closed once its unsent output passes a cap, so it cannot grow memory without bound.
// Each connection has its wire dialect: every event is translated into the active connection's. A connection
// that asked for Incremental State gets `StatePatch` events after its first full `State`, and the full State
// again whenever the patch it would get does not start from the State it holds.
import { injectable } from 'tsyringe';
import { WebSocket } from 'ws';
import {
  CLOSE_NOT_READING,
  CLOSE_REPLACED,
  CLOSE_SHUTDOWN,
  type EventContent,
  type ServiceEvent,
  type EventName,
  type State,
} from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import type { EventSink, StateRevision } from '../protocol/event-sink.js';
import type { WireDialect } from '../protocol/settings.js';
import { eventFrame } from '../protocol/event-frame.js';
import { StateFrames } from './state-frames.js';

/** What a connection asked for when it opened. */
export interface ConnectionTerms {
  dialect: WireDialect;
  /** Incremental State: `StatePatch` events instead of every full `State` after the first. */
  statePatches: boolean;
}

/**
 * Far above what a reading frontend ever has waiting (a full State is tens of kilobytes, a few megabytes with a
 * library of thousands); a State of 50,000 items is 22 MB, and the cap grows with the frame sent.
 */
export const MAX_UNSENT_BYTES = 16 * 1024 * 1024;
/** A frontend that does not read will not read the close frame either: its socket is ended this soon after. */
const NOT_READING_CLOSE_GRACE_MS = 2000;
/**
 * A State change finding this much output still unsent waits, and only the newest State goes once the frontend has
 * read it: a large library's full States (megabytes each) would otherwise queue faster than a frontend reads them.
 */
const STATE_BACKLOG_BYTES = 1024 * 1024;

@injectable()
export class ConnectionHub implements EventSink {
  private active: WebSocket | undefined;
  private terms: ConnectionTerms = { dialect: 'spec', statePatches: false };
  /** The State revision the active connection holds (patches apply only to it); undefined before its first State. */
  private heldRevision: number | undefined;
  private patchSequence = 0;
  /** The largest frame sent on the active connection (bytes of JSON). */
  private largestFrame = 0;
  /**
   * The newest State change waiting for the frontend to read what was sent before it; it goes whole (the frontend
   * missed changes) from the send callback of the frame whose writing brings the backlog under STATE_BACKLOG_BYTES.
   */
  private waitingState: { state: State; revision: number } | undefined;
  private readonly stateFrames = new StateFrames();
  private readonly attachedListeners: Array<(dialect: WireDialect) => void> = [];
  private readonly eventListeners = new Set<(event: ServiceEvent) => void>();
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger.child('transport');
  }

  get isConnected(): boolean {
    return this.active?.readyState === WebSocket.OPEN;
  }

  /** Bytes queued on the active connection that have not been written to the network yet. */
  get bufferedAmount(): number {
    return this.active?.bufferedAmount ?? 0;
  }

  /** `listener` hears the dialect of each connection that becomes the active one. */
  onAttached(listener: (dialect: WireDialect) => void): void {
    this.attachedListeners.push(listener);
  }

  /**
   * `listener` hears every event as the service emits it (spec names, full States), whether or not a frontend is
   * connected: for a desktop shell in the same process. Returns the function that stops it hearing them.
   */
  onEvent(listener: (event: ServiceEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  private tellListeners(event: ServiceEvent): void {
    for (const listener of this.eventListeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error('an event listener failed', { method: event.method, error });
      }
    }
  }

  attach(socket: WebSocket, terms: ConnectionTerms): void {
    const previous = this.active;
    this.active = socket;
    this.terms = terms;
    this.heldRevision = undefined;
    this.largestFrame = 0;
    this.waitingState = undefined;
    if (previous && previous.readyState <= WebSocket.OPEN) {
      this.logger.info('a new frontend connected: closing the previous connection');
      previous.close(CLOSE_REPLACED.code, CLOSE_REPLACED.reason);
    }
    socket.on('close', () => {
      if (this.active !== socket) return;
      this.active = undefined;
      this.waitingState = undefined;
    });
    for (const listener of this.attachedListeners) listener(terms.dialect);
  }

  send<E extends EventName>(method: E, content: EventContent<E>): void {
    this.tellListeners({ method, content } as ServiceEvent);
    if (method === 'State') return this.sendFullState(content as State, undefined);
    this.sendFrame(method, () => eventFrame(this.terms.dialect, method, content));
  }

  sendState(state: State, { revision, since }: StateRevision): void {
    this.tellListeners({ method: 'State', content: state });
    const socket = this.active;
    if (socket?.readyState !== WebSocket.OPEN) return;
    // A change (not an answer, which always goes in its place) behind a backlog waits for the newest to replace it.
    if (since && (this.waitingState || socket.bufferedAmount > STATE_BACKLOG_BYTES)) {
      this.waitingState = { state, revision };
      return;
    }
    if (this.terms.statePatches && since && since.revision === this.heldRevision) {
      this.heldRevision = revision;
      const patch = since.patch();
      if (patch.length === 0) return;
      const sequence = ++this.patchSequence;
      return this.sendFrame('StatePatch', () => JSON.stringify({ method: 'StatePatch', content: { sequence, patch } }));
    }
    this.sendFullState(state, revision);
  }

  private sendFullState(state: State, revision: number | undefined): void {
    this.waitingState = undefined;
    this.heldRevision = revision;
    this.patchSequence = 0;
    this.sendFrame('State', () => this.stateFrames.frame(state, this.terms.dialect));
  }

  private sendFrame(method: EventName, serialise: () => string): void {
    const socket = this.active;
    if (socket?.readyState !== WebSocket.OPEN) return;
    const frame = serialise();
    // ws counts both what the kernel has not taken yet and what it queued itself.
    // Room for three of the largest frame sent on this connection, so a large library's full State and the
    // events behind it (the rest of a NewConnection answer) may wait together.
    this.largestFrame = Math.max(this.largestFrame, frame.length);
    const limit = Math.max(MAX_UNSENT_BYTES, 3 * this.largestFrame);
    if (socket.bufferedAmount + frame.length > limit) return this.closeNotReading(socket, limit);
    socket.send(frame, (error) => {
      if (error) this.logger.warn('could not send an event', { method, error });
      else this.frameWritten(socket);
    });
  }

  /**
   * ws calls a frame's send callback once the frame is written to the socket, and `bufferedAmount` only shrinks
   * when a write completes: so the backlog is checked exactly when it can have come under the threshold (ws has no
   * public 'drain' event; its maintainers point to this callback). A waiting State then goes at once.
   */
  private frameWritten(socket: WebSocket): void {
    if (!this.waitingState || this.active !== socket || socket.bufferedAmount > STATE_BACKLOG_BYTES) return;
    this.sendFullState(this.waitingState.state, this.waitingState.revision);
  }

  private closeNotReading(socket: WebSocket, limit: number): void {
    this.logger.warn('closing a frontend connection that stopped reading', {
      unsentBytes: socket.bufferedAmount,
      limit,
      code: CLOSE_NOT_READING.code,
    });
    socket.close(CLOSE_NOT_READING.code, CLOSE_NOT_READING.reason);
    const ending = setTimeout(() => socket.terminate(), NOT_READING_CLOSE_GRACE_MS);
    socket.once('close', () => clearTimeout(ending));
  }

  close(): void {
    this.waitingState = undefined;
    this.active?.close(CLOSE_SHUTDOWN.code, CLOSE_SHUTDOWN.reason);
    this.active = undefined;
  }
}
