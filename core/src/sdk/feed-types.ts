// Feeds: the only way game data reaches an integration. Every input a feed delivers is plain JSON,
// so the same plugin code runs against the live game or against a tape of it.

/** One HTTP request the game pushed to us (the listener answers 200 with an empty body to what it delivers). */
export interface HttpPushInput {
  method: string;
  path: string;
  /** The raw body as text: parsing, and refusing bad JSON, is the integration's job. */
  body: string;
  userAgent?: string;
}

/** One poll of a local HTTP endpoint: the answer, or why there was none. */
export type PollInput = { status: number; body: string } | { error: string };

/** One complete line of a followed file, or a change of the file itself. */
export type TailInput = { line: string; file: string } | { reset: 'opened' | 'truncated' | 'rotated'; file: string };

/** A file that appeared (and stopped growing) in a watched folder. */
export interface FolderInput {
  /** Path relative to the watched folder, with forward slashes. */
  path: string;
  /** Absolute path to read the file from: the live folder, or the files beside a tape. */
  absolutePath: string;
  size: number;
}

/** One complete line from a TCP connection, or the connection opening or closing. */
export type TcpInput = { line: string } | ConnectionChange;

/** One message from a WebSocket (a binary one decoded as UTF-8), or the connection opening or closing. */
export type WebSocketInput = { message: string } | ConnectionChange;

/** One datagram: its payload as text (or base64), and who sent it (`127.0.0.1:<port>`). */
export interface UdpInput {
  /** The payload, decoded as the feed's `encoding` says. */
  message: string;
  /** `<address>:<port>` of the sender (always a loopback address). */
  from?: string;
}

/**
 * A client feed's connection came up, or went down (`error`: why, when it was not closed cleanly).
 * Attempts that fail before a connection opens are not inputs: the feed retries quietly.
 */
export interface ConnectionChange {
  connection: 'opened' | 'closed';
  /** Why a connection closed, when it did not close cleanly (`read ECONNRESET`, `closed with code 4001: …`). */
  error?: string;
}

export interface FeedInputs {
  httpPush: HttpPushInput;
  poll: PollInput;
  tail: TailInput;
  watchFolder: FolderInput;
  screenText: ScreenTextInput;
  tcp: TcpInput;
  webSocket: WebSocketInput;
  udp: UdpInput;
}
export type FeedKind = keyof FeedInputs;

/** Every feed kind, as manifests (`keyframe.integration.feeds`) and tapes name them. */
export const FEED_KINDS = Object.keys({
  httpPush: true,
  poll: true,
  tail: true,
  watchFolder: true,
  screenText: true,
  tcp: true,
  webSocket: true,
  udp: true,
} satisfies Record<FeedKind, true>) as readonly FeedKind[];

/** An open feed: inputs arrive in order, one handler call at a time. */
export interface Feed<T> {
  /** Settles once the feed is listening or has taken its starting point; rejects with why it cannot (a port in use). */
  readonly ready: Promise<void>;
  /** Sets the handler; the time of an input is `Clock.now()` while the handler runs. */
  onInput(handler: (input: T) => void | Promise<void>): void;
  close(): Promise<void>;
}

export interface HttpPushOptions {
  /** Loopback port to listen on. */
  port: number;
  /** Bodies over this size are refused with 413 and never delivered (default 1 MiB). */
  maxBodyBytes?: number;
  /**
   * Only POSTs whose JSON body carries `"auth": {"token": <this>}` (what a Valve Game State Integration
   * config's `"auth" { "token" … }` makes the game send) are delivered; others get 403. The delivered
   * body has the token replaced by `REDACTED`, so tapes and logs never hold it.
   */
  token?: string;
  /** Told of every request answered 403; the integration can say in health what to do about it. */
  onRefused?: (refusal: HttpPushRefusal) => void;
}

/**
 * Why a request to an httpPush feed was refused with 403 and not delivered:
 * - `browser`: it carries `Origin` or `Sec-Fetch-*`, which a web page's requests have and a game's do
 *   not (refused before its body is read);
 * - `token`: the token is missing or wrong (a game config from before the token, or not the game).
 */
export interface HttpPushRefusal {
  reason: 'browser' | 'token';
  /** Refusals for this reason since the feed opened, this one included. */
  count: number;
}

/**
 * How a feed that speaks TLS to the game checks its certificate. A game's local endpoint usually has
 * a certificate no public authority signed: trust its own root with `ca`, or accept any with
 * `acceptSelfSignedCertificate` (allowed because the address is loopback, but `ca` is better).
 */
export interface LoopbackTlsOptions {
  /** Accept any certificate, self-signed included. Not together with `ca`. */
  acceptSelfSignedCertificate?: boolean;
  /** PEM certificate(s) of the authority that signed the game's certificate (e.g. Riot's published root). */
  ca?: string;
  /** The name the certificate must be for, when it is not the URL's host (e.g. `rclient`). */
  servername?: string;
}

/** Request headers: fixed, or a function asked before every request (a token the game rewrites at each start). */
export type FeedHeaders = Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>);

/**
 * How a client feed reconnects: after a failed attempt or a lost connection it waits `initialDelayMs`
 * (default 250), doubling up to `maxDelayMs` (default 5000); a connection that opens starts over.
 */
export interface ReconnectOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
}

export interface PollOptions extends LoopbackTlsOptions {
  /**
   * A loopback URL (`127.0.0.1`, `localhost` or `[::1]`); anything else is refused. A function is
   * asked before every request, for endpoints that take a cursor (`?lastEvt=` of the newest event
   * seen): a URL it gives that is not loopback becomes an `error` input, and nothing is requested.
   */
  url: string | (() => string);
  intervalMs: number;
  /** Request timeout (default: the interval, at least 1 s). */
  timeoutMs?: number;
  /** Sent with every request (e.g. `Authorization` with a token the game wrote to a file); never taped or logged. */
  headers?: FeedHeaders;
}

export interface TcpOptions {
  /** The loopback port the game listens on. */
  port: number;
  /** `127.0.0.1` (default), `::1` or `localhost`; anything else is refused. */
  host?: string;
  /** How the stream is cut into inputs: `lines` (the only one today; `\n` or `\r\n`). */
  framing?: 'lines';
  /** Text encoding of the stream (default `utf8`). */
  encoding?: BufferEncoding;
  /** Written after every connection opens (a login line, a subscription), as is: include the line end. */
  sendOnOpen?: readonly string[] | (() => readonly string[]);
  reconnect?: ReconnectOptions;
}

export interface WebSocketOptions extends LoopbackTlsOptions {
  /**
   * A loopback `ws://` or `wss://` URL (`127.0.0.1`, `localhost` or `[::1]`). A function is asked
   * before every connection attempt; a URL it gives that is not loopback is not connected to.
   */
  url: string | (() => string);
  /** Sent with the opening handshake; never taped or logged. */
  headers?: FeedHeaders;
  /** Sub-protocols to offer (`Sec-WebSocket-Protocol`). */
  protocols?: readonly string[];
  /** Sent after every connection opens, one message each (e.g. a subscription to the game's events). */
  sendOnOpen?: readonly string[] | (() => readonly string[]);
  reconnect?: ReconnectOptions;
}

export interface UdpOptions {
  /** The port to listen on at 127.0.0.1, where the game sends its datagrams. */
  port: number;
  /** How a datagram's bytes become `message`: `utf8` (default) or `base64` (binary telemetry). */
  encoding?: 'utf8' | 'base64';
  /** Larger datagrams are dropped (default 65507, the largest a datagram can be). */
  maxMessageBytes?: number;
}

export interface TailOptions {
  /** Candidate files, best first: the newest existing one is followed, re-checked as files appear. */
  paths: readonly string[];
  /** Text encoding of the file (default `utf8`; `latin1` for logs of some localized clients). */
  encoding?: BufferEncoding;
  /** How often to look for a file that does not exist yet (ms, default 1000). */
  discoveryIntervalMs?: number;
}

export interface WatchFolderOptions {
  folder: string;
  /** Only files whose path relative to the folder matches. */
  pattern?: RegExp;
  /** How often to scan (ms; default 2500). */
  intervalMs?: number;
  /** A file counts as complete once its size has not changed for this long (ms; default 1000). */
  stableMs?: number;
}

/** Opens feeds for one integration; the host closes them all when the integration deactivates. */
export interface Feeds {
  /** `id` names the feed in tapes; unique within the integration. */
  httpPush(id: string, options: HttpPushOptions): Feed<HttpPushInput>;
  /**
   * The secret to write into the game's push config and to give `httpPush` as `token`: random, made
   * once per data folder and kept there, so a config written once stays valid. Rejects with what to
   * do when it cannot be read or made.
   */
  pushToken(): Promise<string>;
  poll(id: string, options: PollOptions): Feed<PollInput>;
  tail(id: string, options: TailOptions): Feed<TailInput>;
  watchFolder(id: string, options: WatchFolderOptions): Feed<FolderInput>;
  /** A client of a TCP port the game listens on (a console or log stream), reconnecting while open. Throws on a non-loopback host. */
  tcp(id: string, options: TcpOptions): Feed<TcpInput>;
  /** A client of the game's local WebSocket, reconnecting while open. Throws on a non-loopback URL. */
  webSocket(id: string, options: WebSocketOptions): Feed<WebSocketInput>;
  /** Datagrams the game sends to 127.0.0.1:`port` (telemetry); `ready` rejects when the port is in use. */
  udp(id: string, options: UdpOptions): Feed<UdpInput>;
  /**
   * Text read from a region of the recording's frames, one input per frame read. Throws when the
   * options are unusable (a region outside the frame, a bad colour); `ready` rejects when there are
   * no frames to read (no recording pipeline, e.g. `keyframe tape record`).
   */
  screenText(id: string, options: ScreenTextOptions): Feed<ScreenTextInput>;
}

/**
 * On-screen text: a region of the recording's frames (the same encode, a low-rate frame output),
 * read every `intervalMs` by one tesseract.js worker shared by all integrations. A frame that comes
 * while the previous one is still being read is skipped, never queued.
 */
export interface ScreenTextOptions {
  /** The region, as fractions of the frame (0–1), so it holds at every resolution. */
  region: { left: number; top: number; width: number; height: number };
  /** How often to read the newest frame (ms); frames come 5 a second, so below 200 reads no more. */
  intervalMs: number;
  /** Pre-processing before recognition: greyscale and threshold, or keeping one colour as black on white. */
  preprocess: { kind: 'threshold'; level: number } | { kind: 'colourKey'; colour: string; tolerance: number };
  /** Aspect ratios (width / height) the region is valid for; other frames make the feed report `degraded`. */
  aspectRatios?: readonly number[];
}

/** What was read from one frame (the text may be empty: nothing there, or nothing legible). */
export interface ScreenTextInput {
  text: string;
  /** Recognition confidence, 0–100. */
  confidence: number;
  /** Milliseconds since the recording started, of the frame that was read. */
  frameTimeMs: number;
}
