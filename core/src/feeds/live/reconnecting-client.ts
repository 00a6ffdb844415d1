// The connection loop of a client feed (tcp, webSocket): connects, tells of the connection opening
// and closing, and after a failed attempt or a lost connection tries again with a growing delay,
// until the feed is closed. The game not running yet is not an error: attempts fail quietly.
import { setTimeout as delay } from 'node:timers/promises';
import type { ConnectionChange, ReconnectOptions, TcpOptions } from '../../sdk/feed-types.js';
import type { PluginLogger } from '../../sdk/game-integration.js';

const DEFAULT_INITIAL_DELAY_MS = 250;
const DEFAULT_MAX_DELAY_MS = 5000;

/**
 * One connection attempt: calls `opened` when the connection comes up (before any input of it), and
 * settles when it has ended, with why when that was not a clean close. Ends itself on `signal`'s abort.
 * Throwing (a URL function gave a bad URL) counts as a failed attempt.
 */
export type ConnectionAttempt = (opened: () => void, signal: AbortSignal) => Promise<string | undefined>;

export interface ReconnectingClientOptions {
  /** `tcp feed "console"`, for messages. */
  name: string;
  feed: string;
  logger: PluginLogger;
  reconnect?: ReconnectOptions;
  attempt: ConnectionAttempt;
  emit: (change: ConnectionChange) => void;
}

export class ReconnectingClient {
  private readonly stopping = new AbortController();
  private readonly running: Promise<void>;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;

  /** Throws when the reconnect delays are not positive numbers. */
  constructor(private readonly options: ReconnectingClientOptions) {
    this.initialDelayMs = options.reconnect?.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
    this.maxDelayMs = Math.max(this.initialDelayMs, options.reconnect?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
    if (!(this.initialDelayMs > 0) || !Number.isFinite(this.maxDelayMs)) {
      throw new Error(`${options.name}: reconnect delays must be positive numbers of milliseconds`);
    }
    this.running = this.connectUntilStopped();
  }

  async close(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  private async connectUntilStopped(): Promise<void> {
    const { signal } = this.stopping;
    let wait = this.initialDelayMs;
    let failures = 0;
    while (!signal.aborted) {
      let opened = false;
      const ended = await this.attempt(() => {
        opened = true;
        this.options.emit({ connection: 'opened' });
      }, signal);
      if (signal.aborted) return;
      if (opened) {
        this.options.emit({ connection: 'closed', ...(ended === undefined ? {} : { error: ended }) });
        wait = this.initialDelayMs;
        failures = 0;
      } else {
        this.reportFailure(++failures, ended);
      }
      await delay(wait, undefined, { signal }).catch(() => undefined);
      wait = Math.min(wait * 2, this.maxDelayMs);
    }
  }

  /** How the attempt ended; one that throws is a failed attempt. */
  private async attempt(opened: () => void, signal: AbortSignal): Promise<string | undefined> {
    try {
      return await this.options.attempt(opened, signal);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** The first failure in a row at info (the game is not there yet), the rest at debug. */
  private reportFailure(failures: number, why: string | undefined): void {
    const { logger, name, feed } = this.options;
    const log = failures === 1 ? logger.info : logger.debug;
    log.call(logger, `${name} cannot connect yet; retrying: ${why ?? 'closed before it opened'}`, { feed, failures });
  }
}

/** What a client feed sends after each connection opens (`sendOnOpen`, a function asked each time). */
export function openingMessages(sendOnOpen: TcpOptions['sendOnOpen']): readonly string[] {
  return typeof sendOnOpen === 'function' ? sendOnOpen() : (sendOnOpen ?? []);
}
