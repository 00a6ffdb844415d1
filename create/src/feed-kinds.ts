// The feed kinds a new integration can start from. Each is made of template pieces (folders under
// templates/): the integration class, its pure parser with unit tests, and a sample tape with the
// bookmarks it must give. Pieces are shared where kinds share logic (`counters`: the JSON state that
// httpPush, poll, webSocket and udp carry; `log-lines`: the lines that tail and tcp carry), so no
// template repeats another.

export const FEED_KINDS = ['httpPush', 'poll', 'tail', 'watchFolder', 'screenText', 'tcp', 'webSocket', 'udp'] as const;
export type FeedKindName = (typeof FEED_KINDS)[number];

export interface FeedTemplate {
  /** What the game does for this kind, for --help. */
  readonly summary: string;
  /** Folders under templates/, copied in order after templates/common. */
  readonly pieces: readonly string[];
  /** Whether --port means something: the loopback port the game pushes to, or serves on. */
  readonly takesPort: boolean;
  /** The bookmark types the template produces (the manifest's `events`). */
  readonly events: readonly string[];
  /** The manifest's `feeds` entry. */
  manifestFeed(port: number | undefined): string;
}

export const FEED_TEMPLATES: Readonly<Record<FeedKindName, FeedTemplate>> = {
  httpPush: {
    summary: 'the game POSTs its state to a loopback port (e.g. Game State Integration)',
    pieces: ['counters', 'httpPush'],
    takesPort: true,
    events: ['Kill', 'Death'],
    manifestFeed: (port) => `httpPush:${port}`,
  },
  poll: {
    summary: 'the game serves its state on a local HTTP endpoint that we ask every second',
    pieces: ['counters', 'poll'],
    takesPort: true,
    events: ['Kill', 'Death'],
    manifestFeed: (port) => `poll:http://127.0.0.1:${port}/state`,
  },
  tail: {
    summary: 'the game writes a log file, one line per event',
    pieces: ['log-lines', 'tail'],
    takesPort: false,
    events: ['Kill', 'Death'],
    manifestFeed: () => 'tail:game.log',
  },
  watchFolder: {
    summary: 'the game writes a file per match (results, replays) into a folder',
    pieces: ['watchFolder'],
    takesPort: false,
    events: ['Kill', 'Death'],
    manifestFeed: () => 'watchFolder:matches',
  },
  screenText: {
    summary: 'the game only draws its events on screen: read from the recording with OCR',
    pieces: ['screenText'],
    takesPort: false,
    events: ['Kill'],
    manifestFeed: () => 'screenText',
  },
  tcp: {
    summary: 'the game offers a console on a loopback port that writes a line per event',
    pieces: ['log-lines', 'tcp'],
    takesPort: true,
    events: ['Kill', 'Death'],
    manifestFeed: (port) => `tcp:${port}`,
  },
  webSocket: {
    summary: 'the game serves its state as messages on a local WebSocket',
    pieces: ['counters', 'webSocket'],
    takesPort: true,
    events: ['Kill', 'Death'],
    manifestFeed: (port) => `webSocket:ws://127.0.0.1:${port}/state`,
  },
  udp: {
    summary: 'the game sends its state as datagrams to a loopback port (telemetry)',
    pieces: ['counters', 'udp'],
    takesPort: true,
    events: ['Kill', 'Death'],
    manifestFeed: (port) => `udp:${port}`,
  },
};

export function isFeedKind(name: string): name is FeedKindName {
  return (FEED_KINDS as readonly string[]).includes(name);
}
