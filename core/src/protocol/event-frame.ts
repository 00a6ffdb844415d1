// An event as the frame sent for it, in a connection's dialect. Content that is frozen cannot change, so
// its frame is kept: the same `Settings` answering a burst of commands is serialised once per dialect.
import type { EventContent, EventName } from './index.js';
import type { WireDialect } from './settings.js';
import { eventToDialect } from './wire-dialect.js';

/** Per frozen content: its frames by method and dialect; dropped with the content. */
const framesOfFrozen = new WeakMap<object, Map<string, string>>();

export function eventFrame<E extends EventName>(dialect: WireDialect, method: E, content: EventContent<E>): string {
  if (typeof content !== 'object' || content === null || !Object.isFrozen(content)) return serialised(dialect, method, content);
  let frames = framesOfFrozen.get(content);
  if (!frames) framesOfFrozen.set(content, (frames = new Map()));
  const key = `${dialect} ${method}`;
  let frame = frames.get(key);
  if (frame === undefined) frames.set(key, (frame = serialised(dialect, method, content)));
  return frame;
}

/** `value` and everything inside it frozen: content whose frame may be kept. */
export function deepFrozen<T>(value: T): Readonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFrozen(inner);
  }
  return value;
}

function serialised<E extends EventName>(dialect: WireDialect, method: E, content: EventContent<E>): string {
  return JSON.stringify(eventToDialect(dialect, method, content));
}
