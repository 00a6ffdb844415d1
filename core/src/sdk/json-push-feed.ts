// The shared half of an integration the game pushes JSON to (a Game State Integration): listening on
// its loopback port with an error that says what to do, refusing pushes without the config's token,
// and reading each push without logging its body.
import type { Feeds, HttpPushInput } from './feed-types.js';
import type { IntegrationSettings, PluginLogger } from './game-integration.js';

/** The port of the manifest's `httpPush:<port>` feed, which the host hands over; throws (a failed hook) when it declares none. */
export function pushPortOf(settings: IntegrationSettings): number {
  if (settings.port === undefined)
    throw new Error(`${settings.key}'s package.json declares no httpPush:<port> feed in keyframe.integration.feeds`);
  return settings.port;
}

export interface JsonPushFeedOptions {
  /** The feed's id, unique within the integration (it names the feed in tapes). */
  id: string;
  /** The loopback port the game pushes to. */
  port: number;
  /** The game as the user knows it, for the error when the port cannot be listened on. */
  game: string;
  /**
   * The token the game's config makes it send (`Feeds.pushToken()`), for games whose config can carry
   * one (Valve's `"auth" { "token" … }`); pushes without it are refused. Without it, only requests
   * from web pages are refused.
   */
  token?: string;
  /**
   * Told, in words for the user, each time a push without the right token was refused: the game runs
   * with a config from before the token (or someone else posts). Meant for health.
   */
  onTokenRefused?: (message: string) => void;
}

/**
 * Opens an httpPush feed for the game's pushes and resolves once it listens. When it cannot listen (a
 * port in use), it rejects with what to do, the feed's own error as the cause; `activate` rethrows it
 * after its own clean-up.
 */
export async function openJsonPushFeed(
  feeds: Feeds,
  { id, port, game, token, onTokenRefused }: JsonPushFeedOptions,
  onInput: (input: HttpPushInput) => void | Promise<void>,
): Promise<void> {
  const feed = feeds.httpPush(id, {
    port,
    token,
    onRefused: ({ reason, count }) => {
      if (reason === 'token') onTokenRefused?.(tokenRefusedMessage(game, count));
    },
  });
  feed.onInput(onInput);
  try {
    await feed.ready;
  } catch (error) {
    throw new Error(
      `Cannot listen for ${game} on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}. ` +
        `Close the program that uses port ${port} and start the game again.`,
      { cause: error },
    );
  }
}

/** What health says once `count` pushes came without the token of the config Keyframe installed. */
export function tokenRefusedMessage(game: string, count: number): string {
  return (
    `Refused ${count} ${count === 1 ? 'push' : 'pushes'} from ${game} without Keyframe's token: restart ${game} so that it ` +
    'reads the game state config Keyframe installed (if you changed that file, delete it so that Keyframe writes it again).'
  );
}

/**
 * The JSON a push carries, or `undefined` for a request that is not a POST or a body that is not JSON.
 * The latter is logged at debug level by size only, as a body is never logged.
 */
export function readJsonPush(input: HttpPushInput, logger: PluginLogger): { payload: unknown } | undefined {
  if (input.method.toUpperCase() !== 'POST') return undefined;
  try {
    return { payload: JSON.parse(input.body) };
  } catch {
    logger.debug('Ignored a push that is not JSON', { bytes: input.body.length, userAgent: input.userAgent });
    return undefined;
  }
}
