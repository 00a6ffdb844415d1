// The bookmarks an integration's instances add through: each one counts as an event, one no recording covers
// is logged (so plugins need not), and a type the manifest does not declare is refused, said once in the log
// and then in health. Kept for the whole lifecycle: a refused type stays said across restarts.
import type { Bookmarks as BookmarksService, Clock as ClockService, PluginLogger } from '../sdk/game-integration.js';
import type { IntegrationManifest } from './manifest.js';

export interface CheckedBookmarksOptions {
  key: string;
  /** What the package declares; without one every type is let through. */
  manifest?: IntegrationManifest;
  bookmarks: BookmarksService;
  clock: ClockService;
  logger: PluginLogger;
  /** A bookmark was asked for at this time: the integration's last event. */
  event(at: Date): void;
  /** What health shows changed (last event, refused types). */
  changed(): void;
}

export class CheckedBookmarks implements BookmarksService {
  readonly #undeclaredEvents = new Set<string>();

  constructor(private readonly options: CheckedBookmarksOptions) {}

  /** An arrow: a plugin may call `add` detached from this object. */
  readonly add: BookmarksService['add'] = async (request) => {
    const { key, manifest, bookmarks, logger } = this.options;
    if (manifest && !(manifest.integration.events as readonly string[]).includes(request.type)) {
      if (!this.#undeclaredEvents.has(request.type)) {
        this.#undeclaredEvents.add(request.type);
        logger.warn(`${request.type} not bookmarked: the manifest does not declare it in keyframe.integration.events`, { key });
        this.options.changed();
      }
      return false;
    }
    this.options.event(this.options.clock.now());
    const added = await bookmarks.add(request);
    if (!added)
      logger.debug(`${request.type} not bookmarked: no recording covers it`, {
        key,
        ...(request.at ? { at: request.at.toISOString() } : {}),
      });
    this.options.changed();
    return added;
  };

  /** The bookmark types refused so far, in words for health; undefined while none was. */
  get problem(): string | undefined {
    const types = [...this.#undeclaredEvents];
    if (types.length === 0) return undefined;
    const name = this.options.manifest?.integration.displayName ?? this.options.key;
    return (
      `${name} tried to add ${types.join(', ')} bookmarks, which its manifest does not declare ` +
      '(keyframe.integration.events in its package.json): they were not added.'
    );
  }
}
