// The `keyframe` block of an integration's package.json: read and checked without importing code.
import { Type, type Static } from '#typebox';
import { BookmarkType, describeProblems, StringEnum } from '../protocol/index.js';
import { FEED_KINDS } from '../sdk/feed-types.js';
import { editDistance } from '../sdk/keyword-match.js';

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

/** A field name this close to a known one (case-insensitive edits) is taken for a misspelling of it. */
const MAX_MISSPELLING_EDITS = 2;

/** The known field nearest to `name`, when `name` looks like a misspelling of it. */
export function misspellingOf(name: string, known: readonly string[]): string | undefined {
  const distances = known.map((field) => ({ field, edits: editDistance(name.toLowerCase(), field.toLowerCase()) }));
  const nearest = distances.sort((a, b) => a.edits - b.edits)[0];
  return nearest && nearest.edits <= MAX_MISSPELLING_EDITS ? nearest.field : undefined;
}

/**
 * Fields of the `keyframe` block (and of its `integration` and each game) that the manifest does not
 * know: not an error (a newer plugin may declare more), but most often a misspelling, which would
 * otherwise be silently ignored.
 */
export function manifestWarnings(block: unknown): string[] {
  const integration = IntegrationManifest.properties.integration;
  const game = integration.properties.games.items;
  const warnings = unknownFields('keyframe', block, Object.keys(IntegrationManifest.properties));
  const declared = fieldsOf(block)?.integration;
  warnings.push(...unknownFields('keyframe.integration', declared, Object.keys(integration.properties)));
  const games = fieldsOf(declared)?.games;
  if (Array.isArray(games)) {
    games.forEach((entry, index) =>
      warnings.push(...unknownFields(`keyframe.integration.games[${index}]`, entry, Object.keys(game.properties))),
    );
  }
  return warnings;
}

function unknownFields(where: string, value: unknown, known: readonly string[]): string[] {
  return Object.keys(fieldsOf(value) ?? {})
    .filter((field) => !known.includes(field))
    .map((field) => {
      const meant = misspellingOf(field, known);
      return `unknown field ${where}.${field}: ${meant ? `did you mean \`${meant}\`?` : `it knows ${known.join(', ')}`}`;
    });
}

function fieldsOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
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
