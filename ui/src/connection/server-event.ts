// Events from the backend, typed from the protocol schemas, and their `window` CustomEvent form.
import type { EventContentMap, EventName } from '@keyframe/core/protocol';

/** `{method, content}` as a union discriminated by `method`. */
export type ServerEvent = { [E in EventName]: { method: E; content: EventContentMap[E] } }[EventName];

export const SERVER_EVENT = 'websocket-message';

declare global {
  interface WindowEventMap {
    [SERVER_EVENT]: CustomEvent<ServerEvent>;
  }
}

/** The event in a text frame; undefined for anything that is not a `{method, content}` object. */
export function parseServerEvent(text: string): ServerEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (!('method' in value) || typeof value.method !== 'string' || !('content' in value)) return undefined;
  // The backend validates its events against the same schemas; only the envelope is checked here.
  return value as ServerEvent;
}

export function dispatchServerEvent(event: ServerEvent): void {
  window.dispatchEvent(new CustomEvent(SERVER_EVENT, { detail: event }));
}

/** A handler per event name, each typed by its event's content. */
export type ServerEventHandlers = { [E in EventName]?: (content: EventContentMap[E]) => void };

/** Calls the handler named by each event's method; for stores that listen from module load. */
export function onServerEvents(handlers: ServerEventHandlers): void {
  window.addEventListener(SERVER_EVENT, ({ detail }) => {
    // `detail` pairs method and content; TypeScript cannot follow that pairing through the indexed lookup.
    const handle = handlers[detail.method] as ((content: ServerEvent['content']) => void) | undefined;
    handle?.(detail.content);
  });
}
