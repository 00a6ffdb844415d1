// Events, backend to frontend: `{method, content}`. One entry per method with the schema of its content.
import { Type, type Static, type TSchema } from '#typebox';
import { ContentItem, ContentType, GameEntry, Nullable, RecoverableFile, ReleaseNote, Segment, State, StringEnum } from './models.js';
import { JsonPatchOperation } from './json-patch.js';
import { Settings } from './settings.js';

export interface EventDefinition<C extends TSchema = TSchema> {
  readonly content: C;
  readonly summary: string;
  readonly extension?: boolean;
}

const define = <C extends TSchema>(content: C, summary: string, extension = false): EventDefinition<C> => ({ content, summary, extension });

export const EmptyContent = Type.Object({}, { additionalProperties: false });
const progress = Type.Number({ minimum: -1, maximum: 100, description: '0-100, 100 complete, -1 error' });
/** Extension fields of the media jobs' progress events: what a finished job made, and the end of a cancelled one. */
const jobOutput = Type.Optional(
  Type.Object(
    { filePath: Type.String(), fileName: Type.String(), type: ContentType, title: Type.String() },
    { description: 'Extension: with 100, the library video the job made (or replaced): open it, show it in its folder' },
  ),
);
const jobCancelled = Type.Optional(Type.Literal(true, { description: 'Extension: with -1, the job ended because it was cancelled' }));

export const REJECTION_CODES = [
  'MalformedMessage',
  'UnknownMethod',
  'InvalidParameters',
  'NotAllowed',
  'NotFound',
  'Failed',
  'Unavailable',
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export const Events = {
  Settings: define(Settings, 'The bare Settings object; on NewConnection and on every change'),
  State: define(State, 'Runtime state; on NewConnection and on changes (coalesced, at most one per 50 ms)'),
  StatePatch: define(
    Type.Object({
      sequence: Type.Integer({ minimum: 1, description: '1 for the first patch after a full State, then one more each time' }),
      patch: Type.Array(JsonPatchOperation, { description: 'RFC 6902 operations that turn the previous State into the current one' }),
    }),
    'Incremental State: what changed since the last State or StatePatch, to a connection that asked for `?state=patch`',
    true,
  ),
  GameList: define(Type.Array(GameEntry), 'The game catalog, a bare array; on NewConnection'),
  AppVersion: define(
    Type.Object({
      version: Type.String(),
      canSelfUpdate: Type.Optional(Type.Boolean({ description: 'Absent on the legacy port' })),
    }),
    'The application version; on NewConnection and on every legacy-port connection',
  ),
  ClipProgress: define(
    Type.Object({
      id: Type.Number(),
      progress,
      segments: Type.Array(Segment),
      error: Type.Optional(Type.String()),
      output: jobOutput,
    }),
    'Clip creation progress',
  ),
  UploadProgress: define(
    Type.Object({
      fileName: Type.String(),
      title: Type.String(),
      progress,
      status: StringEnum(['uploading', 'processing', 'done', 'error'] as const),
      message: Type.Optional(Type.String()),
      output: jobOutput,
    }),
    'Upload progress',
  ),
  ImportProgress: define(
    Type.Object({
      id: Type.Number(),
      fileName: Type.String(),
      progress,
      status: StringEnum(['importing', 'done', 'error'] as const),
      totalFiles: Type.Integer(),
      currentFileIndex: Type.Integer({ description: '0-based' }),
      message: Type.Optional(Type.String()),
      output: jobOutput,
      cancelled: jobCancelled,
    }),
    'Import progress',
  ),
  CompressionProgress: define(
    Type.Object({
      filePath: Type.String(),
      progress,
      status: StringEnum(['compressing', 'done', 'skipped', 'error'] as const),
      message: Type.Optional(Type.String()),
      output: jobOutput,
      cancelled: jobCancelled,
    }),
    'Compression progress',
  ),
  UpdateProgress: define(
    Type.Object({
      version: Type.String(),
      progress: Type.Number({ minimum: -1, maximum: 100, description: '0-100; -1: that stage failed (message says why)' }),
      status: StringEnum(['downloading', 'downloaded', 'ready'] as const),
      message: Type.String(),
    }),
    'Update download and install progress; replayed on NewConnection',
  ),
  AiProgress: define(
    Type.Object({
      id: Type.String(),
      progress,
      status: StringEnum(['processing', 'done', 'error'] as const),
      message: Type.String(),
      content: ContentItem,
      output: jobOutput,
      cancelled: jobCancelled,
    }),
    'Highlight generation progress; `content` is the source item',
  ),
  RecordingPreviewState: define(Type.Object({ enabled: Type.Boolean() }), 'The live preview was switched on or off'),
  RecordingPreviewFrame: define(
    Type.Object({
      jpegBase64: Type.String({ description: 'base64 JPEG, no data: prefix' }),
      width: Type.Integer(),
      height: Type.Integer(),
    }),
    'A preview frame, about 10 per second while the preview is enabled',
  ),
  MigrationStatus: define(
    Type.Object({
      isRunning: Type.Boolean(),
      currentMigration: Nullable(Type.String(), { description: 'what the running migration does, in words; null at the end' }),
    }),
    'Start-up data migrations; also on NewConnection while they run',
  ),
  ContentMigrationProgress: define(
    Type.Object({
      id: Type.String(),
      fileName: Type.String(),
      progress,
      status: StringEnum(['migrating', 'done', 'error'] as const),
      totalFiles: Type.Optional(Type.Integer()),
      currentFileIndex: Type.Optional(Type.Integer()),
      message: Type.Optional(Type.String()),
    }),
    'MigrateContent progress',
  ),
  ReplayBufferSaveStarted: define(EmptyContent, 'A replay-buffer save was accepted; ReplayBufferSaved follows once it is written', true),
  ReplayBufferSaved: define(EmptyContent, 'The replay buffer was saved'),
  ShowModal: define(
    Type.Object({
      title: Type.String(),
      subtitle: Type.Optional(Type.String()),
      description: Type.String(),
      type: StringEnum(['info', 'warning', 'error'] as const),
    }),
    'A dialog for the user',
  ),
  StorageWarning: define(
    Type.Object({
      warningId: Type.String(),
      title: Type.String(),
      description: Type.String(),
      confirmText: Type.String(),
      cancelText: Type.String(),
      action: Type.String(),
      actionData: Type.Unknown(),
    }),
    'A storage problem to confirm; answered with StorageWarningConfirm',
  ),
  RecoveryPrompt: define(
    Type.Object({
      files: Type.Array(RecoverableFile),
      totalCount: Type.Integer(),
    }),
    'Files left by a crash; answered with RecoveryConfirm',
  ),
  BookmarkCreated: define(EmptyContent, 'A bookmark was added to the active recording'),
  SelectedGameExecutable: define(
    Type.Object({
      name: Type.String(),
      paths: Type.Array(Type.String()),
    }),
    'Result of SelectGameExecutable',
  ),
  ReleaseNotes: define(Type.Object({ releaseNotesList: Type.Array(ReleaseNote) }), 'Release notes, after NewConnection'),
  ShowReleaseNotes: define(Type.String({ description: 'A version' }), 'Asks the frontend to show release notes for a version'),
  CaptureEngineDownloadProgress: define(
    Type.Object({
      progress: Type.Number({ minimum: 0, maximum: 100 }),
      status: StringEnum(['downloading'] as const),
    }),
    'First-time capture engine download',
  ),
  DiscordLoginResult: define(
    Type.Object({
      status: StringEnum(['success', 'cancelled', 'expired', 'error'] as const),
      accessToken: Type.Optional(Type.String({ description: 'With `success`' })),
      refreshToken: Type.Optional(Type.String({ description: 'With `success`' })),
      message: Type.Optional(Type.String({ description: 'With `error`: why, in words' })),
    }),
    'Outcome of LoginWithDiscord or CancelDiscordLogin',
    true,
  ),
  pong: define(EmptyContent, 'Reply to the `ping` text frame'),
  CommandRejected: define(
    Type.Object({
      method: Nullable(Type.String(), { description: 'The command, null when the frame named none' }),
      code: StringEnum(REJECTION_CODES),
      message: Type.String(),
    }),
    'A command was refused; the connection stays open',
    true,
  ),
} as const satisfies Record<string, EventDefinition>;

export type EventName = keyof typeof Events;
/** Computed once for all events: resolving `Static<>` per call site is too deep for the compiler. */
export type EventContentMap = { [E in EventName]: Static<(typeof Events)[E]['content']> };
export type EventContent<E extends EventName> = EventContentMap[E];
export interface EventEnvelope<E extends EventName = EventName> {
  method: E;
  content: EventContent<E>;
}
/** Any one event, discriminated by `method` (what an in-process listener of the service hears). */
export type ServiceEvent = { [E in EventName]: EventEnvelope<E> }[EventName];
