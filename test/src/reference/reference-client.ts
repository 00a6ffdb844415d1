// A frontend that talks as the reference frontend does (protocol-gaps.md §3, §8, §9, §10): the bare `ping`
// frame, `NewConnection` without a `Parameters` key on every open, commands with the keys and casing that
// client builds, media from the second HTTP port with the page's Origin. Its shapes are written from that
// description on purpose, not taken from Keyframe's schemas: a conformance check cannot share the code it checks.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { WebSocket } from 'ws';

export type ReferenceContentType = 'Session' | 'Buffer' | 'Clip' | 'Highlight';

/** `<TypeFolder>` of the thumbnail and waveform paths the client builds (§10). */
export const REFERENCE_TYPE_FOLDERS: Readonly<Record<ReferenceContentType, string>> = {
  Session: 'Full Sessions',
  Buffer: 'Replay Buffers',
  Clip: 'Clips',
  Highlight: 'Highlights',
};

/** The ten `gameIntegrations` keys the reference frontend shows (§2). */
export const REFERENCE_INTEGRATION_KEYS = [
  'counterStrike2',
  'leagueOfLegends',
  'pubg',
  'rocketLeague',
  'dota2',
  'minecraft',
  'rust',
  'runescapeDragonwilds',
  'warThunder',
  'gta',
] as const;

/** A library item as the client reads it (§7.3). */
export interface ReferenceContent {
  type: ReferenceContentType;
  title: string;
  game: string;
  bookmarks: { id: number; type: string; subtype: string | null; time: string; aiRating: number | null }[];
  fileName: string;
  filePath: string;
  fileSize: string;
  fileSizeKb: number;
  duration: string;
  createdAt: string;
  aiAnalysis: null;
  uploadId: string | null;
  igdbId: number | null;
  audioTrackNames: string[] | null;
  isImported: boolean;
}

export interface ReferenceState {
  recording: { startTime: string; endTime: string | null; filePath: string | null; game: string; bookmarks: unknown[] } | null;
  preRecording: unknown;
  hasLoadedObs: boolean;
  availableOBSVersions: { version: string; isBeta: boolean; supportsFrom: string | null; supportsTo: string | null; url: string }[];
  content: ReferenceContent[];
  isCheckingForUpdates: boolean;
  currentFolderSizeGb: number;
  recordingDriveUsedGb: number | null;
  recordingDriveFreeGb: number | null;
  cacheFolder: string;
  [field: string]: unknown;
}

/** The whole Settings object: the client merges it, changes a field and sends all of it back (§5.4, §8). */
export interface ReferenceSettings {
  selectedOBSVersion: string | null;
  disableWindowsGameMode: boolean;
  gameIntegrations: Record<string, { enabled: boolean }>;
  videoQualityPreset: string;
  contentFolder: string;
  [field: string]: unknown;
}

/** The waveform file's body (§10). */
export interface WaveformPeaks {
  version: number;
  channels: number;
  sample_rate: number;
  samples_per_pixel: number;
  bits: number;
  length: number;
  data: number[];
}

/** A clip-editor segment, every key the client sets (§8 CreateClip). */
export interface ReferenceSegment {
  id: number;
  type: ReferenceContentType;
  fileName: string;
  filePath: string;
  game: string;
  title: string | null;
  startTime: number;
  endTime: number;
  igdbId: number | null;
  mutedAudioTracks: number[];
  audioTrackVolumes: Record<string, number>;
}

export interface ReferenceContentKey {
  FileName: string;
  ContentType: ReferenceContentType;
}

/** What the client sends (§8), for the commands this suite uses; `undefined`: no `Parameters` key. */
export interface ReferenceCommands {
  NewConnection: undefined;
  Login: { accessToken: string; refreshToken: string };
  StartRecording: undefined;
  StopRecording: undefined;
  LoginWithDiscord: undefined;
  CancelDiscordLogin: undefined;
  RefreshStorageStats: undefined;
  MigrateContent: undefined;
  CheckForUpdates: undefined;
  /** Keyframe's command for the reference's save-replay hotkey (the page itself has no button for it). */
  SaveReplayBuffer: undefined;
  CreateClip: { OutputMode: 'combined' | 'separate'; Segments: ReferenceSegment[] };
  DeleteContent: ReferenceContentKey;
  DeleteMultipleContent: { Items: ReferenceContentKey[] };
  RenameContent: ReferenceContentKey & { Title: string };
  /** `FilePaths` is Keyframe's extension that stands for the file picker's answer. */
  ImportFile: { sectionId: 'sessions' | 'replayBuffer'; FilePaths: string[] };
  UploadContent: {
    FilePath: string;
    JWT: string;
    Game: string;
    Title: string;
    Description: string;
    Visibility: 'Public' | 'Unlisted';
    IgdbId: string;
  };
  CompressVideo: { FilePath: string };
  AddBookmark: { FilePath: string; Type: 'Manual'; Time: string; ContentType: ReferenceContentType; Id: number };
  DeleteBookmark: { FilePath: string; ContentType: ReferenceContentType; Id: number };
  UpdateSettings: ReferenceSettings;
  ApplyVideoPreset: { preset: 'low' | 'standard' | 'high' | 'custom' };
  StorageWarningConfirm: { warningId: string; confirmed: boolean; action: string; actionData: unknown };
  RecoveryConfirm: { recoveryId: string; action: 'recover' | 'delete' | 'skip'; gameOverride?: string };
}

/** What the client reads of each event (§9). */
export interface ReferenceEvents {
  Settings: ReferenceSettings;
  State: ReferenceState;
  GameList: { name: string; executables: string[]; icon: string | null; igdbId: number | null }[];
  AppVersion: { version: string; canSelfUpdate: boolean };
  ReleaseNotes: { releaseNotesList: { version: string; base64Markdown: string; releaseDate: string }[] };
  ShowModal: { title: string; subtitle?: string | null; description: string; type: string };
  StorageWarning: {
    warningId: string;
    title: string;
    description: string;
    confirmText: string;
    cancelText: string;
    action: string;
    actionData: unknown;
  };
  RecoveryPrompt: {
    files: { recoveryId: string; fileName: string; filePath: string; fileSize: string; typeLabel: string; detectedGame: string | null }[];
  };
  ClipProgress: { id: number; progress: number; segments: ReferenceSegment[]; error?: string };
  CompressionProgress: { filePath: string; progress: number; status: string; message?: string };
  ImportProgress: {
    id: number;
    fileName: string;
    progress: number;
    status: string;
    totalFiles: number;
    currentFileIndex: number;
    message?: string;
  };
  UploadProgress: { title: string; fileName: string; progress: number; status: string; message: string };
  ContentMigrationProgress: {
    id: string;
    fileName: string;
    progress: number;
    status: string;
    totalFiles: number;
    currentFileIndex: number;
    message: string | null;
  };
  ReplayBufferSaveStarted: Record<string, never>;
  ReplayBufferSaved: Record<string, never>;
  DiscordLoginResult: { status: string; accessToken?: string; refreshToken?: string };
  UpdateProgress: { version: string; progress: number; status: string; message: string };
  pong: Record<string, never>;
}

export type ReferenceEventName = keyof ReferenceEvents;

/** One text frame as received, parsed when it was JSON. */
export interface ReceivedFrame {
  text: string;
  method: string | undefined;
  content: unknown;
}

interface Waiter {
  matches: (frame: ReceivedFrame) => boolean;
  resolve: (frame: ReceivedFrame) => void;
}

export class ReferenceClient {
  /** Every frame received, in order. */
  readonly frames: ReceivedFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly waiters = new Set<Waiter>();
  private cursor = 0;

  private constructor(private readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    socket.on('message', (data) => this.receive(data.toString()));
  }

  /** Opens the socket as the page does (its Origin), then sends `NewConnection`, and `Login` when it holds a session, as on every open. */
  static async open(url: string, origin: string, session?: ReferenceCommands['Login']): Promise<ReferenceClient> {
    const socket = new WebSocket(url, { origin });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused with HTTP ${response.statusCode}`)));
    });
    const client = new ReferenceClient(socket);
    client.send('NewConnection');
    if (session) client.send('Login', session);
    return client;
  }

  /** `JSON.stringify({Method, Parameters})`: an undefined `Parameters` drops the key, as in the client's send utility. */
  send<M extends keyof ReferenceCommands>(
    method: M,
    ...parameters: ReferenceCommands[M] extends undefined ? [] : [ReferenceCommands[M]]
  ): void {
    this.socket.send(JSON.stringify({ Method: method, Parameters: parameters[0] }));
  }

  /** The heartbeat: the bare text `ping`, no envelope (§3). */
  ping(): void {
    this.socket.send('ping');
  }

  /** The next frame of that method (after those already awaited) whose content satisfies `predicate`. */
  async next<E extends ReferenceEventName>(
    method: E,
    predicate: (content: ReferenceEvents[E]) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<ReferenceEvents[E]> {
    const matches = (frame: ReceivedFrame) => frame.method === method && predicate(frame.content as ReferenceEvents[E]);
    const index = this.frames.findIndex((frame, at) => at >= this.cursor && matches(frame));
    if (index >= 0) {
      this.cursor = index + 1;
      return this.frames[index]!.content as ReferenceEvents[E];
    }
    this.cursor = this.frames.length;
    const frame = await new Promise<ReceivedFrame>((resolve, reject) => {
      const waiter: Waiter = { matches, resolve };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no ${method} within ${timeoutMs} ms; received: ${this.frames.map((seen) => seen.method).join(', ')}`));
      }, timeoutMs);
      waiter.resolve = (found) => {
        clearTimeout(timer);
        resolve(found);
      };
      this.waiters.add(waiter);
    });
    return frame.content as ReferenceEvents[E];
  }

  /** The latest frame of that method if it satisfies `predicate`, else the next one that does. */
  until<E extends ReferenceEventName>(
    method: E,
    predicate: (content: ReferenceEvents[E]) => boolean,
    timeoutMs = 5000,
  ): Promise<ReferenceEvents[E]> {
    const latest = this.all(method).at(-1);
    return latest !== undefined && predicate(latest) ? Promise.resolve(latest) : this.next(method, predicate, timeoutMs);
  }

  /** The contents of every frame of that method so far. */
  all<E extends ReferenceEventName>(method: E): ReferenceEvents[E][] {
    return this.frames.filter((frame) => frame.method === method).map((frame) => frame.content as ReferenceEvents[E]);
  }

  /** Frames received from now on are the ones `next` looks at. */
  skipReceived(): void {
    this.cursor = this.frames.length;
  }

  close(): Promise<{ code: number; reason: string }> {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.close();
    return this.closed;
  }

  private receive(text: string): void {
    let parsed: { method?: unknown; content?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // Kept as text: the checks on names read every frame.
    }
    const frame: ReceivedFrame = { text, method: typeof parsed.method === 'string' ? parsed.method : undefined, content: parsed.content };
    this.frames.push(frame);
    for (const waiter of this.waiters) {
      if (!waiter.matches(frame)) continue;
      this.waiters.delete(waiter);
      this.cursor = this.frames.length;
      waiter.resolve(frame);
      return;
    }
  }
}

/** `Time` of AddBookmark as the player builds it: `HH:MM:SS.mmm`. */
export function bookmarkTime(seconds: number): string {
  const milliseconds = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(milliseconds / 3_600_000))}:${pad(Math.floor(milliseconds / 60_000) % 60)}:${pad(Math.floor(milliseconds / 1000) % 60)}.${pad(milliseconds % 1000, 3)}`;
}

/** Every object key anywhere in `value`, with the path it was found at (`State.content.0.igdbId`). */
export function keyPaths(value: unknown, at: string): string[] {
  if (Array.isArray(value)) return value.flatMap((element, index) => keyPaths(element, `${at}.${index}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [`${at}.${key}`, ...keyPaths(inner, `${at}.${key}`)]);
}

export interface MediaAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface PageRequest {
  /** `fetch` sends the page's Origin (a CORS request); `element` (an `<img>`, a `<video>`) sends only its Referer. */
  as: 'fetch' | 'element';
  method?: 'GET' | 'OPTIONS';
  headers?: Record<string, string>;
}

/** A media request from the page at `origin` to `url` (a plain-HTTP loopback address), with the headers a browser adds. */
export function pageMediaRequest(url: string, origin: string, { as, method = 'GET', headers = {} }: PageRequest): Promise<MediaAnswer> {
  const site = { referer: `${origin}/`, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': as === 'fetch' ? 'cors' : 'no-cors' };
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers: { ...site, ...(as === 'fetch' ? { origin } : {}), ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}
