// Headers a feed sends to the game (an auth token, often): checked before use, and never logged or
// taped, so an error names the header, not its value.
import type { FeedHeaders } from '../../sdk/feed-types.js';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The headers to send now (a function is asked each time); throws, naming the feed, when one is unusable. */
export function requestHeaders(feed: string, headers: FeedHeaders | undefined): Record<string, string> {
  const current = typeof headers === 'function' ? headers() : (headers ?? {});
  if (typeof current !== 'object' || current === null) throw new Error(`${feed}: headers must be an object of names to values`);
  for (const [name, value] of Object.entries(current)) {
    if (!HEADER_NAME.test(name)) throw new Error(`${feed}: ${JSON.stringify(name)} is not a header name`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw new Error(`${feed}: the value of header ${name} must be text on one line`);
    }
  }
  return { ...current };
}
