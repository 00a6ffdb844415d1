// The `State` frame of each dialect, serialised once per State: a NewConnection with 5,000 library items
// would otherwise rebuild and stringify megabytes for every frontend that connects. In SPEC's dialect each
// library item is serialised once for as long as it is unchanged (State is updated immutably, so an
// unchanged item is the same object), and a changed State costs only what changed plus a join.
import type { ContentItem, State } from '../protocol/index.js';
import type { WireDialect } from '../protocol/settings.js';
import { eventToDialect } from '../protocol/wire-dialect.js';

export class StateFrames {
  private readonly items = new WeakMap<ContentItem, string>();
  private readonly frames = new Map<WireDialect, { state: State; frame: string }>();

  frame(state: State, dialect: WireDialect): string {
    const cached = this.frames.get(dialect);
    if (cached?.state === state) return cached.frame;
    const frame = dialect === 'spec' ? this.specFrame(state) : JSON.stringify(eventToDialect(dialect, 'State', state));
    this.frames.set(dialect, { state, frame });
    return frame;
  }

  private specFrame(state: State): string {
    const { content, ...rest } = state;
    const others = JSON.stringify(rest);
    const items = content.map((item) => {
      let text = this.items.get(item);
      if (text === undefined) this.items.set(item, (text = JSON.stringify(item)));
      return text;
    });
    // `content` first: the other fields are never empty, so `others` opens with `{"`.
    return `{"method":"State","content":{"content":[${items.join(',')}],${others.slice(1)}}`;
  }
}
