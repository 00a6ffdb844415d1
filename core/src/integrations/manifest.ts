// The `keyframe` block of an integration's package.json: read and checked without importing code.
import Type, { type Static } from 'typebox';
import { BookmarkType, describeProblems, StringEnum } from '../protocol/index.js';
import { FEED_KINDS } from '../sdk/feed-types.js';

export const SUPPORTED_API_VERSIONS = [1] as const;

export const IntegrationManifest = Type.Object({
  apiVersion: Type.Integer(),
  integration: Type.Object({
    key: Type.String({ pattern: '^[a-z][a-zA-Z0-9]*$', description: 'The `gameIntegrations` settings key' }),
    displayName: Type.String({ minLength: 1 }),
    events: Type.Array(BookmarkType, { minItems: 1 }),
    games: Type.Array(
      Type.Object({
        name: Type.String({ minLength: 1 }),
        executables: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
      }),
      { minItems: 1 },
    ),
    feeds: Type.Array(Type.String({ pattern: `^(${FEED_KINDS.join('|')})(:.+)?$` })),
    activation: Type.Optional(
      StringEnum(['recording', 'game'] as const, {
        description:
          '`recording` (default): active while one of its games runs during a recording. `game`: while one of its games ' +
          'runs, recording or not, for games that tell of events after the fact (replay files): their bookmarks go to the ' +
          'finished recording that covered them.',
      }),
    ),
  }),
});
export type IntegrationManifest = Static<typeof IntegrationManifest>;

export type ManifestCheck = { manifest: IntegrationManifest } | { problem: string };

/** Checks a package.json's `keyframe` block: shape first, then the API version this host speaks. */
export function checkManifest(block: unknown): ManifestCheck {
  const problems = describeProblems(IntegrationManifest, block);
  if (problems.length > 0) return { problem: `bad keyframe manifest: ${problems.join('; ')}` };
  const manifest = block as IntegrationManifest;
  if (!(SUPPORTED_API_VERSIONS as readonly number[]).includes(manifest.apiVersion)) {
    return { problem: `apiVersion ${manifest.apiVersion} is not supported (this Keyframe supports ${SUPPORTED_API_VERSIONS.join(', ')})` };
  }
  return { manifest };
}

/** The feed kinds the manifest declares: `httpPush:1340` declares `httpPush`. */
export function declaredFeedKinds(manifest: IntegrationManifest): ReadonlySet<string> {
  return new Set(manifest.integration.feeds.map((feed) => feed.split(':')[0]!));
}

/** The loopback port of the manifest's `httpPush:<port>` feed, when it declares one. */
export function declaredPushPort(manifest: IntegrationManifest): number | undefined {
  const port = manifest.integration.feeds.map((feed) => /^httpPush:(\d+)$/.exec(feed)?.[1]).find((found) => found !== undefined);
  return port === undefined ? undefined : Number(port);
}
