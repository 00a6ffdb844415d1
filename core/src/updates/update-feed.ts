// The update channel: a JSON feed of releases served over HTTP(S), read with got and checked
// against its schema. Stable users see stable releases; beta users see both channels.
import semver from 'semver';
import { Type, type Static } from '#typebox';
import { describeProblems } from '../protocol/index.js';

export const FeedRelease = Type.Object({
  version: Type.String({ description: 'Semantic version' }),
  channel: Type.Union([Type.Literal('stable'), Type.Literal('beta')]),
  url: Type.String({ minLength: 1, description: 'The .tar.gz package; relative URLs resolve against the feed' }),
  size: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
  releaseDate: Type.String({ description: 'ISO 8601' }),
  notes: Type.String({ description: 'Markdown' }),
});
export type FeedRelease = Static<typeof FeedRelease>;

export const UpdateFeed = Type.Object({ releases: Type.Array(FeedRelease) });
export type UpdateFeed = Static<typeof UpdateFeed>;

const FEED_TIMEOUT_MS = 15_000;

export class UpdateFeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpdateFeedError';
  }
}

/** The feed's releases with valid versions and absolute package URLs; throws `UpdateFeedError`. */
export async function fetchUpdateFeed(feedUrl: string, userAgent: string): Promise<FeedRelease[]> {
  let body: unknown;
  // Loaded here, not at start-up: importing got costs a tenth of a second of every start.
  const { default: got } = await import('got');
  try {
    body = await got(feedUrl, {
      timeout: { request: FEED_TIMEOUT_MS },
      retry: { limit: 1 },
      headers: { 'user-agent': userAgent, accept: 'application/json' },
    }).json();
  } catch (error) {
    throw new UpdateFeedError(`The update channel ${feedUrl} could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const problems = describeProblems(UpdateFeed, body);
  if (problems.length > 0) throw new UpdateFeedError(`The update channel ${feedUrl} sent an invalid feed: ${problems.join('; ')}`);
  return (body as UpdateFeed).releases
    .filter((release) => semver.valid(release.version) !== null)
    .map((release) => ({ ...release, url: new URL(release.url, feedUrl).href }));
}

/** The releases a user on that channel is offered, newest first. */
export function releasesForChannel(releases: readonly FeedRelease[], beta: boolean): FeedRelease[] {
  return releases.filter((release) => beta || release.channel === 'stable').sort((a, b) => semver.rcompare(a.version, b.version));
}
