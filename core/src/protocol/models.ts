// TypeBox schemas of the data models carried by commands and events (SPEC.md "Resources").
// Shapes SPEC leaves open follow reference/protocol-gaps.md §7, with SPEC's neutral names.
import { Type, type Static, type TEnum, type TSchema, type TSchemaOptions } from '#typebox';

/** `T | null`: SPEC and protocol-gaps emit unset fields as `null`, never omit them. */
export const Nullable = <T extends TSchema>(schema: T, options: TSchemaOptions = {}) => Type.Union([schema, Type.Null()], options);

/** One of the given strings (a JSON Schema `enum`), typed as the union of those literals. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: TSchemaOptions & { default?: T[number] } = {}) =>
  Type.Enum([...values], options) as TEnum<[...T]>;

export const Duration = Type.String({
  pattern: '^(\\d+\\.)?\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,7})?$',
  description: 'Duration as `hh:mm:ss` plus `.fffffff` when fractional, `d.` prefix past 24 h',
});
export const DateTime = Type.String({ description: 'ISO 8601 local time with offset' });

export const CONTENT_TYPES = ['Session', 'Buffer', 'Clip', 'Highlight'] as const;
export const ContentType = StringEnum(CONTENT_TYPES);
export type ContentType = Static<typeof ContentType>;

/**
 * The folder of each content type: below the content folder, and in the cache's thumbnail and
 * waveform paths, which a client builds itself from `State.cacheFolder` (docs/protocol.md, media URLs).
 */
export const TYPE_FOLDERS: Readonly<Record<ContentType, string>> = {
  Session: 'Full Sessions',
  Buffer: 'Replay Buffers',
  Clip: 'Clips',
  Highlight: 'Highlights',
};

export const BOOKMARK_TYPES = ['Manual', 'Kill', 'Death', 'Assist', 'Goal'] as const;
export const BookmarkType = StringEnum(BOOKMARK_TYPES);
export type BookmarkType = Static<typeof BookmarkType>;

export const PRESET_NAMES = ['low', 'standard', 'high', 'custom'] as const;
export const PresetName = StringEnum(PRESET_NAMES);
export type PresetName = Static<typeof PresetName>;

export const RECORDING_MODES = ['Session', 'Buffer', 'Hybrid'] as const;
export const RecordingMode = StringEnum(RECORDING_MODES);
export type RecordingMode = Static<typeof RecordingMode>;

export const Bookmark = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  type: BookmarkType,
  subtype: Nullable(Type.String()),
  time: Duration,
  aiRating: Nullable(Type.Integer()),
});
export type Bookmark = Static<typeof Bookmark>;

export const Segment = Type.Object(
  {
    id: Type.Number({ description: 'Segment id; also the clip operation id in ClipProgress and CancelClip' }),
    startTime: Type.Number({ minimum: 0, description: 'Start, in seconds' }),
    endTime: Type.Number({ minimum: 0, description: 'End, in seconds' }),
    fileName: Type.String({ minLength: 1, description: 'Input video file name (no extension)' }),
    filePath: Type.Optional(Type.String()),
    type: ContentType,
    game: Type.String(),
    title: Type.Optional(Nullable(Type.String())),
    gameDatabaseId: Type.Optional(Nullable(Type.Integer())),
    mutedAudioTracks: Type.Optional(Nullable(Type.Array(Type.Integer({ minimum: 0 })))),
    audioTrackVolumes: Type.Optional(Nullable(Type.Record(Type.String({ pattern: '^\\d+$' }), Type.Number({ minimum: 0 })))),
  },
  { additionalProperties: false },
);
export type Segment = Static<typeof Segment>;

export const ContentItemReference = Type.Object(
  {
    FileName: Type.String({ minLength: 1 }),
    ContentType,
  },
  { additionalProperties: false },
);
export type ContentItemReference = Static<typeof ContentItemReference>;

export const ContentItem = Type.Object({
  id: Type.String({ description: 'Stable content id (extension): 32 hex characters, key of the metadata sidecar' }),
  type: ContentType,
  title: Type.String(),
  game: Type.String(),
  bookmarks: Type.Array(Bookmark),
  fileName: Type.String({ description: 'Video file name without extension' }),
  filePath: Type.String({ description: 'Absolute path, forward slashes' }),
  fileSize: Type.String({ description: '`123.45 MB`, `1.23 GB` from 1000 MiB up, `Unknown` on error' }),
  fileSizeKb: Type.Integer(),
  duration: Duration,
  createdAt: DateTime,
  aiAnalysis: Type.Null(),
  uploadId: Nullable(Type.String()),
  uploadUrl: Type.Optional(
    Type.String({
      description: 'Extension: public URL of the uploaded video (its last path segment is `uploadId`); set after a successful upload',
    }),
  ),
  gameDatabaseId: Nullable(Type.Integer()),
  audioTrackNames: Nullable(Type.Array(Type.String())),
  isImported: Type.Boolean(),
  compressed: Type.Boolean({ description: 'Extension: the file is the output of CompressVideo' }),
  favorite: Type.Optional(Type.Literal(true, { description: 'Extension: present (true) on an item marked a favourite with SetFavorite' })),
});
export type ContentItem = Static<typeof ContentItem>;

export const PreRecording = Type.Object({
  game: Type.String(),
  status: Type.String(),
  coverImageId: Nullable(Type.String()),
  pid: Nullable(Type.Integer()),
  exe: Nullable(Type.String()),
});
export type PreRecording = Static<typeof PreRecording>;

export const Recording = Type.Object({
  startTime: DateTime,
  endTime: Nullable(DateTime),
  filePath: Nullable(Type.String({ description: 'Session file; null in Buffer mode' })),
  game: Type.String(),
  fileName: Type.String({ description: 'Executable file name, `Unknown` for manual recordings' }),
  pid: Nullable(Type.Integer()),
  isUsingGameHook: Type.Boolean(),
  exePath: Nullable(Type.String()),
  bookmarks: Type.Array(Bookmark),
  coverImageId: Nullable(Type.String()),
  audioTrackNames: Nullable(Type.Array(Type.String())),
  duration: Nullable(Duration),
});
export type Recording = Static<typeof Recording>;

export const AudioDevice = Type.Object({ id: Type.String(), name: Type.String(), isDefault: Type.Boolean() });
export type AudioDevice = Static<typeof AudioDevice>;

export const Display = Type.Object({
  deviceName: Type.String(),
  deviceId: Type.String(),
  isPrimary: Type.Boolean(),
  isHdr: Type.Boolean(),
});
export type Display = Static<typeof Display>;

export const Codec = Type.Object({
  friendlyName: Type.String(),
  internalEncoderId: Type.String(),
  isHardwareEncoder: Type.Boolean(),
});
export type Codec = Static<typeof Codec>;

export const CaptureEngineVersion = Type.Object({
  version: Type.String(),
  isBeta: Type.Boolean(),
  supportsFrom: Nullable(Type.String()),
  supportsTo: Nullable(Type.String()),
  url: Type.String(),
});
export type CaptureEngineVersion = Static<typeof CaptureEngineVersion>;

/** Where the ffmpeg in use was found, in the order the service looks. */
export const CAPTURE_ENGINE_SOURCES = ['environment', 'ffmpeg-static', 'installer-package', 'path', 'downloaded'] as const;

export const CaptureEngineInfo = Type.Object({
  source: StringEnum(CAPTURE_ENGINE_SOURCES, {
    description: '`environment` (FFMPEG_PATH), `ffmpeg-static`, `installer-package` (@ffmpeg-installer), `path` (PATH) or `downloaded`',
  }),
  path: Type.String(),
  version: Type.String({ description: 'As `ffmpeg -version` prints it' }),
  missing: Type.Array(Type.String(), {
    description: 'What this build lacks that recordings on this platform would use (screen or sound inputs, hardware encoders)',
  }),
  fix: Type.Optional(Type.String({ description: 'The one step that gets a build without those gaps; only when `missing` is not empty' })),
});
export type CaptureEngineInfo = Static<typeof CaptureEngineInfo>;

export const CAPTURE_METHODS = ['ddagrab', 'gdigrab', 'x11grab', 'avfoundation', 'synthetic'] as const;
export const CAPTURE_IN_USE_OF = ['current', 'last', 'next'] as const;

export const CaptureInUse = Type.Object({
  of: StringEnum(CAPTURE_IN_USE_OF, {
    description: 'Which recording this describes: the `current` one, the `last` one, or (before the first) the one the `next` would be',
  }),
  method: StringEnum(CAPTURE_METHODS, { description: 'How the picture is grabbed; `synthetic`: a test pattern, not the screen' }),
  encoder: Type.String({ description: 'The ffmpeg encoder (`Codec.internalEncoderId`)' }),
  encoderName: Type.String({ description: 'Its name for people (`Codec.friendlyName`)' }),
  hardwareEncode: Type.Boolean({ description: 'The GPU encodes' }),
  hardwareGrab: Type.Boolean({ description: 'The grabbed picture stays in GPU memory (ddagrab)' }),
  reasons: Type.Array(Type.String(), { description: 'Each choice of the path (screen, encoder, filters, threads) and why, for people' }),
  notUsed: Type.Array(
    Type.Object({
      requested: Type.String({ description: 'What the settings or the platform asked for (an encoder id, `ddagrab`)' }),
      used: Type.String({ description: 'What is used instead' }),
      reason: Type.String(),
    }),
    { description: 'What was wanted but not used, and why' },
  ),
});
export type CaptureInUse = Static<typeof CaptureInUse>;

export const ContentHash = Type.String({
  pattern: '^[0-9a-f]{64}$',
  description: "SHA-256 of the package's files, lowercase hex (docs/writing-an-integration.md §10)",
});

export const INTEGRATION_APPROVAL = ['pending', 'approved'] as const;
export const IntegrationApproval = Type.Object(
  {
    status: StringEnum(INTEGRATION_APPROVAL, {
      description: '`pending`: switched off until the user approves this package (ApproveIntegration)',
    }),
    packageName: Type.String(),
    version: Type.String(),
    path: Type.String({ description: 'The package folder, forward slashes' }),
    hash: ContentHash,
  },
  {
    description:
      'Extension: present for a third-party package (the user plugins folder), which runs only once the user approved these contents',
  },
);
export type IntegrationApproval = Static<typeof IntegrationApproval>;

export const INTEGRATION_HEALTH = ['disabled', 'idle', 'active', 'degraded', 'failed'] as const;
export const IntegrationHealth = Type.Object({
  displayName: Type.Optional(
    Type.String({ description: 'Its name for people, from its manifest (absent for a package that was not loaded)' }),
  ),
  status: StringEnum(INTEGRATION_HEALTH),
  message: Type.String(),
  lastEventAt: Nullable(DateTime),
  approval: Type.Optional(IntegrationApproval),
});
export type IntegrationHealth = Static<typeof IntegrationHealth>;

/** The label and hint of one integration setting, shared by every kind of field. */
const settingFieldText = {
  title: Type.Optional(Type.String({ description: 'The label in the settings page (the field name without it)' })),
  description: Type.Optional(Type.String({ description: 'A hint under the label' })),
};

export const BooleanSettingField = Type.Object({ type: Type.Literal('boolean'), default: Type.Boolean(), ...settingFieldText });
export const TextSettingField = Type.Object({
  type: Type.Literal('string'),
  default: Type.String(),
  format: Type.Optional(Type.String()),
  pattern: Type.Optional(Type.String()),
  minLength: Type.Optional(Type.Integer({ minimum: 0 })),
  maxLength: Type.Optional(Type.Integer({ minimum: 0 })),
  ...settingFieldText,
});
export const NumberSettingField = Type.Object({
  type: StringEnum(['number', 'integer'] as const),
  default: Type.Number(),
  minimum: Type.Optional(Type.Number()),
  maximum: Type.Optional(Type.Number()),
  ...settingFieldText,
});
export const ChoiceSettingField = Type.Object({
  enum: Type.Array(Type.String(), { minItems: 1, description: 'The allowed values, shown as a list to choose from' }),
  default: Type.String(),
  ...settingFieldText,
});
export const TextListSettingField = Type.Object({
  type: Type.Literal('array'),
  items: Type.Object({ type: Type.Literal('string') }),
  default: Type.Array(Type.String()),
  ...settingFieldText,
});
export const IntegrationSettingField = Type.Union(
  [ChoiceSettingField, BooleanSettingField, TextSettingField, NumberSettingField, TextListSettingField],
  { description: 'A JSON Schema of one of the kinds the settings page renders, each with its default' },
);
export type IntegrationSettingField = Static<typeof IntegrationSettingField>;

export const IntegrationSettingsSchema = Type.Object(
  {
    type: Type.Literal('object'),
    properties: Type.Record(Type.String({ pattern: '^[a-zA-Z][a-zA-Z0-9]*$' }), IntegrationSettingField),
  },
  {
    description:
      "Extension: the settings an integration declares (docs/writing-an-integration.md §4), a JSON Schema; each field's value is stored in `gameIntegrations.<key>` beside `enabled`",
  },
);
export type IntegrationSettingsSchema = Static<typeof IntegrationSettingsSchema>;

export const INTEGRATION_PACKAGE_STATUS = ['refused', 'failed', 'waitingForApproval', 'restartNeeded'] as const;
export const IntegrationPackage = Type.Object(
  {
    packageName: Type.Optional(Type.String({ description: 'Absent when its package.json gives none' })),
    version: Type.Optional(Type.String()),
    folder: Type.String({ description: 'The package folder, forward slashes' }),
    key: Type.Optional(Type.String({ description: 'The integration key it claims, when its manifest got that far' })),
    status: StringEnum(INTEGRATION_PACKAGE_STATUS, {
      description:
        '`refused`: discovery did not load it (`reason`); `failed`: it was loaded and failed (`reason`); `waitingForApproval`: a ' +
        'third-party package the user has not approved (see `integrations.<key>.approval`); `restartNeeded`: the package on disk ' +
        'was updated or removed while its integration runs; the running one stays until Keyframe restarts',
    }),
    reason: Type.String({ description: 'For people: why, and what to do' }),
    warnings: Type.Array(Type.String(), { description: 'What is odd about the package without keeping it from loading' }),
  },
  { description: 'Extension: an integration package that is not simply loaded and well' },
);
export type IntegrationPackage = Static<typeof IntegrationPackage>;

export const EncodeLevel = Type.Object(
  {
    preset: Nullable(Type.String(), {
      description: "x264's preset for a live encode (`superfast`, `ultrafast`); null for an encoder without one",
    }),
    frameRate: Type.Integer(),
    resolution: Type.String({ description: 'As the `resolution` setting: `720p`, `1080p`, `1440p` or `4K`' }),
  },
  { description: "Extension: what a recording's encode costs: x264 preset, frame rate, picture size" },
);
export type EncodeLevel = Static<typeof EncodeLevel>;

export const ENCODE_OVERLOAD_REASONS = ['speed', 'frameRate', 'droppedFrames'] as const;
export const EncodingHealth = Type.Object(
  {
    overloaded: Type.Boolean({
      description: 'The encode does not keep up with the clock (over the last few seconds); set at once, cleared when it has kept up again',
    }),
    reason: Nullable(StringEnum(ENCODE_OVERLOAD_REASONS), {
      description:
        'Why it is overloaded: `speed` (it encodes slower than real time: the file would be shorter than the time recorded), ' +
        '`frameRate` (frames are lost: fewer per second than the target), ' +
        '`droppedFrames` (ffmpeg drops or duplicates frames and fewer than the target come out); null when it keeps up',
    }),
    speed: Nullable(Type.Number(), {
      description: 'Seconds of video encoded per second of the clock, over the last few seconds; null until measured',
    }),
    framesPerSecond: Nullable(Type.Number(), { description: 'Frames encoded per second, over the last few seconds; null until measured' }),
    targetFrameRate: Type.Integer({ description: "The recording's frame rate" }),
    droppedFrames: Type.Integer({
      description: 'Frames ffmpeg dropped or duplicated in this recording (the frames of a source faster than the frame rate count too)',
    }),
    steppedDown: Nullable(EncodeLevel, {
      description:
        "The lower level this recording runs at instead of the settings', because an earlier recording could not keep up; null at the settings' level",
    }),
    nextStepDown: Nullable(EncodeLevel, {
      description:
        'The level the next recordings start at, because this one could not keep up (kept until the service stops or the recording settings change); ' +
        'null when nothing changes',
    }),
  },
  { description: 'Extension: how the encode of the current or last recording keeps up with the clock' },
);
export type EncodingHealth = Static<typeof EncodingHealth>;

export const GPU_VENDORS = ['Unknown', 'Nvidia', 'AMD', 'Intel'] as const;

export const State = Type.Object({
  recording: Nullable(Recording),
  preRecording: Nullable(PreRecording),
  content: Type.Array(ContentItem, { description: 'Newest `createdAt` first' }),
  inputDevices: Type.Array(AudioDevice),
  outputDevices: Type.Array(AudioDevice),
  displays: Type.Array(Display),
  codecs: Type.Array(Codec),
  availableCaptureEngineVersions: Type.Array(CaptureEngineVersion),
  gpuVendor: StringEnum(GPU_VENDORS),
  gpuComputeCapability: Type.Number({ description: '0 when no GPU of that vendor is detected' }),
  maxDisplayHeight: Type.Integer(),
  hasLoadedCaptureEngine: Type.Boolean(),
  isCheckingForUpdates: Type.Boolean(),
  currentFolderSizeGb: Type.Number(),
  recordingDriveUsedGb: Nullable(Type.Number()),
  recordingDriveFreeGb: Nullable(Type.Number()),
  cacheFolder: Type.String({ description: 'Forward slashes' }),
  integrations: Type.Record(Type.String(), IntegrationHealth, {
    description: 'Extension: health of each game integration, by settings key',
  }),
  integrationSettings: Type.Record(Type.String(), IntegrationSettingsSchema, {
    description: 'Extension: the settings each loaded game integration declares, by settings key (none: it declares none)',
  }),
  integrationPackages: Type.Array(IntegrationPackage, {
    description: 'Extension: the integration packages that were refused, failed, wait for approval or need a restart',
  }),
  loading: Type.Array(Type.String(), {
    description:
      'Extension: the parts of the service still starting after it answered (`captureEngine`, `integrations`, `library`, `gameDetection`); ' +
      'empty once everything is loaded',
  }),
  captureEngine: Nullable(CaptureEngineInfo, {
    description: 'Extension: the ffmpeg in use and what it cannot do here; null until it is loaded and when there is none',
  }),
  captureInUse: Nullable(CaptureInUse, {
    description:
      'Extension: the capture method and encoder really used by the current recording, else the last one, else the ones the next ' +
      'would use, with why a requested one is not; null until the capture engine is loaded',
  }),
  encodingHealth: Nullable(EncodingHealth, {
    description:
      'Extension: whether the current or last recording keeps up with the clock, and the lower level chosen when not; null before the first recording',
  }),
});
export type State = Static<typeof State>;

export const Game = Type.Object({ name: Type.String(), paths: Type.Array(Type.String()) });
export type Game = Static<typeof Game>;

export const GameEntry = Type.Object({
  name: Type.String(),
  executables: Type.Array(Type.String()),
  gameDatabaseId: Nullable(Type.Integer()),
  icon: Nullable(Type.String()),
});
export type GameEntry = Static<typeof GameEntry>;

export const ReleaseNote = Type.Object({
  version: Type.String(),
  base64Markdown: Type.String(),
  releaseDate: Type.String(),
});
export type ReleaseNote = Static<typeof ReleaseNote>;

export const RecoverableFile = Type.Object({
  recoveryId: Type.String(),
  fileName: Type.String({ description: 'File name with extension' }),
  filePath: Type.String(),
  type: ContentType,
  typeLabel: Type.String(),
  fileSize: Type.String(),
  detectedGame: Nullable(Type.String()),
});
export type RecoverableFile = Static<typeof RecoverableFile>;
