// A feed that cannot work where it was opened: `ready` rejects with why (logged here, so nobody
// has to await it), and nothing is ever delivered.
import type { LiveSource, SourceContext } from './types.js';

export class UnavailableSource implements LiveSource {
  readonly ready: Promise<void>;

  constructor(context: SourceContext<unknown>, reason: string) {
    this.ready = Promise.reject(new Error(reason));
    this.ready.catch((error: Error) => context.logger.error(error.message, { feed: context.feed }));
  }

  async close(): Promise<void> {}
}
