// The Settings schema: SPEC's fields plus the reference fields of protocol-gaps.md §7.6 and §7.7.
// Every field carries its default, so `Value.Create(Settings)` is the factory configuration.
import { Type, type Static } from '#typebox';
import { Codec, Display, Game, Nullable, PRESET_NAMES, RECORDING_MODES, RecordingMode, StringEnum } from './models.js';

export const RESOLUTIONS = ['720p', '1080p', '1440p', '4K'] as const;
export const Resolution = StringEnum(RESOLUTIONS, { default: '1080p' });
export const RATE_CONTROLS = ['CBR', 'VBR', 'CRF', 'CQP'] as const;
export const RateControl = StringEnum(RATE_CONTROLS, { default: 'VBR' });
export const EncoderKind = StringEnum(['gpu', 'cpu'] as const, { default: 'gpu' });

/** The game integrations SPEC names; plugins add theirs through their manifests. */
export const INTEGRATION_KEYS = [
  'tacticalShooter',
  'arenaGameA',
  'battleRoyale',
  'vehicleSoccer',
  'arenaGameB',
  'blockSandbox',
  'survivalGame',
  'fantasySurvival',
  'vehicleCombat',
  'openWorldCrime',
] as const;

export const KEYBIND_ACTIONS = ['CreateBookmark', 'ToggleRecording', 'SaveReplayBuffer', 'TogglePreview'] as const;
export const Keybinding = Type.Object({
  action: StringEnum(KEYBIND_ACTIONS),
  enabled: Type.Boolean(),
  keys: Type.Array(Type.Integer({ minimum: 0, maximum: 255 }), { description: 'Virtual-key codes: modifiers plus one key' }),
});
export type Keybinding = Static<typeof Keybinding>;

export const DeviceSetting = Type.Object({
  id: Type.String({ description: '`default` is the system default device' }),
  name: Type.String(),
  volume: Type.Number({ minimum: 0, maximum: 4, default: 1 }),
});
export type DeviceSetting = Static<typeof DeviceSetting>;

export const QualityOverride = Type.Object({
  preset: StringEnum(PRESET_NAMES, { default: 'high' }),
  resolution: Resolution,
  frameRate: Type.Integer({ minimum: 1, maximum: 240, default: 60 }),
  rateControl: RateControl,
  crfValue: Type.Integer({ minimum: 0, maximum: 51, default: 23 }),
  cqLevel: Type.Integer({ minimum: 0, maximum: 51, default: 20 }),
  bitrate: Type.Integer({ minimum: 1, default: 50 }),
  minBitrate: Type.Integer({ minimum: 1, default: 40 }),
  maxBitrate: Type.Integer({ minimum: 1, default: 70 }),
  encoder: EncoderKind,
  codec: Nullable(Codec, { description: 'null keeps the global codec' }),
});

export const RecordingModeOverride = Type.Object({
  recordingMode: RecordingMode,
  replayBufferDuration: Type.Integer({ minimum: 1, default: 30 }),
  replayBufferMaxSize: Type.Integer({ minimum: 1, default: 1000 }),
});

export const GameSetting = Type.Object({
  name: Type.String({ minLength: 1 }),
  paths: Type.Array(Type.String(), { description: 'Executable paths or file names' }),
  gameDatabaseId: Type.Optional(Nullable(Type.Integer())),
  icon: Type.Optional(Nullable(Type.String())),
  customIcon: Type.Optional(Nullable(Type.String({ description: 'base64 PNG' }))),
  record: Type.Boolean({ description: 'true: always record; false: never record' }),
  qualityOverride: Type.Optional(Nullable(QualityOverride)),
  recordingModeOverride: Type.Optional(Nullable(RecordingModeOverride)),
  discardSessionsWithoutBookmarksOverride: Type.Optional(Nullable(Type.Boolean())),
  enableHdrOverride: Type.Optional(Nullable(Type.Boolean())),
  volumeOverride: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
});
export type GameSetting = Static<typeof GameSetting>;

/** A value of a setting an integration declares (the field kinds of IntegrationSettingsSchema). */
export const IntegrationSettingValue = Type.Union([Type.Boolean(), Type.String(), Type.Number(), Type.Array(Type.String())]);
export type IntegrationSettingValue = Static<typeof IntegrationSettingValue>;
export const IntegrationSetting = Type.Intersect(
  [Type.Object({ enabled: Type.Boolean({ default: true }) }), Type.Record(Type.String(), IntegrationSettingValue)],
  {
    description: 'Extension: beside `enabled`, the values of the settings the integration declares (State.integrationSettings)',
  },
);
export type IntegrationSetting = Static<typeof IntegrationSetting>;

/** The names a connection speaks: SPEC's (`spec`) or the reference frontend's (`reference`, protocol-gaps §2). */
export const WIRE_DIALECTS = ['spec', 'reference'] as const;
export type WireDialect = (typeof WIRE_DIALECTS)[number];

export const MENU_ITEMS = ['Full Sessions', 'Replay Buffer', 'Clips', 'Highlights', 'Settings'] as const;
export const MenuItem = Type.Object({ id: StringEnum(MENU_ITEMS), visible: Type.Boolean() });

const defaultKeybindings: Keybinding[] = [
  { action: 'CreateBookmark', enabled: true, keys: [119] },
  { action: 'ToggleRecording', enabled: true, keys: [120] },
  { action: 'SaveReplayBuffer', enabled: true, keys: [121] },
  { action: 'TogglePreview', enabled: true, keys: [122] },
];

const booleanSetting = (value: boolean, description?: string) => Type.Boolean({ default: value, description });
const integer = (value: number, minimum: number, maximum?: number, description?: string) =>
  Type.Integer({ default: value, minimum, ...(maximum === undefined ? {} : { maximum }), description });

/** Extension: which OS notifications the desktop app shows (issue 25); each kind on unless turned off. */
const desktopNotificationSettings = {
  notifyReplaySaved: booleanSetting(true, 'Extension: the desktop app tells when a replay was saved, with its name'),
  notifyClipSaved: booleanSetting(true, 'Extension: the desktop app tells when a clip or highlight was saved, with its name'),
  notifyAutoRecording: booleanSetting(
    true,
    'Extension: the desktop app tells when game detection started or stopped a recording, with the game',
  ),
  notifyIntegrationFailed: booleanSetting(true, 'Extension: the desktop app tells when a game integration failed, which one and why'),
  notifyUpdateReady: booleanSetting(true, 'Extension: the desktop app tells when an update is ready to install, with its version'),
};

export const Settings = Type.Object(
  {
    contentFolder: Type.String({ minLength: 1, description: 'Folder for video content' }),
    cacheFolder: Type.String({ minLength: 1, description: 'Cache folder (metadata, thumbnails, waveforms, buffer segments)' }),
    resolution: Resolution,
    frameRate: integer(60, 1, 240),
    stretch4By3: booleanSetting(true),
    enableHdr: booleanSetting(false),
    rateControl: RateControl,
    crfValue: integer(20, 0, 51),
    cqLevel: integer(20, 0, 51),
    bitrate: integer(50, 1, 500, 'Mbps, CBR target'),
    minBitrate: integer(40, 1, 500, 'Mbps, VBR'),
    maxBitrate: integer(70, 1, 500, 'Mbps, VBR'),
    encoder: EncoderKind,
    codec: Nullable(Codec, { default: null }),
    selectedCaptureEngineVersion: Nullable(Type.String(), { default: null }),
    storageLimit: integer(100, 1, undefined, 'GB'),
    inputDevices: Type.Array(DeviceSetting, { default: [] }),
    outputDevices: Type.Array(DeviceSetting, { default: [] }),
    forceMonoInputSources: booleanSetting(false),
    inputNoiseSuppression: booleanSetting(true),
    selectedDisplay: Nullable(Display, { default: null }),
    displayCaptureMethod: StringEnum(['Auto', 'DXGI', 'WGC'] as const, { default: 'Auto' }),
    enableAi: booleanSetting(true),
    autoGenerateHighlights: booleanSetting(true),
    highlightPaddingBefore: Type.Number({ default: 4, minimum: 0, maximum: 60 }),
    highlightPaddingAfter: Type.Number({ default: 4, minimum: 0, maximum: 60 }),
    runOnStartup: booleanSetting(false),
    startupWindowMode: StringEnum(['Normal', 'Minimized'] as const, { default: 'Minimized' }),
    closeButtonAction: StringEnum(['Minimize', 'Exit'] as const, { default: 'Minimize' }),
    receiveBetaUpdates: booleanSetting(false),
    airplaneMode: booleanSetting(false),
    recordingMode: StringEnum(RECORDING_MODES, { default: 'Hybrid' }),
    replayBufferDuration: integer(30, 1, 3600, 'seconds'),
    replayBufferMaxSize: integer(1000, 1, undefined, 'MB'),
    keybindings: Type.Array(Keybinding, { default: defaultKeybindings }),
    games: Type.Array(GameSetting, { default: [] }),
    gameIntegrations: Type.Record(Type.String({ pattern: '^[a-zA-Z][a-zA-Z0-9]*$' }), IntegrationSetting, {
      default: Object.fromEntries(INTEGRATION_KEYS.map((key) => [key, { enabled: true }])),
    }),
    whitelist: Type.Array(Game, { default: [], description: 'Legacy, migration only: games always recorded' }),
    blacklist: Type.Array(Game, { default: [], description: 'Legacy, migration only: games never recorded' }),
    clipClearSegmentsAfterCreatingClip: booleanSetting(false),
    clipShowInBrowserAfterUpload: booleanSetting(false),
    clipEncoder: StringEnum(['gpu', 'cpu'] as const, { default: 'cpu' }),
    clipQualityCpu: integer(23, 0, 51, 'CRF'),
    clipQualityGpu: integer(23, 0, 51, 'CQ'),
    clipCodec: StringEnum(['h264', 'h265', 'av1'] as const, { default: 'h264' }),
    clipFps: integer(60, 0, 240, '0 keeps the source frame rate'),
    clipAudioQuality: StringEnum(['96k', '128k', '192k', '256k', '320k'] as const, { default: '128k' }),
    clipPreset: StringEnum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower'] as const, {
      default: 'veryfast',
    }),
    clipKeepSeparateAudioTracks: booleanSetting(false),
    soundEffectsVolume: Type.Number({ default: 0.5, minimum: 0, maximum: 1 }),
    showNewBadgeOnVideos: booleanSetting(false),
    showGameBackground: booleanSetting(true),
    showAudioWaveformInTimeline: booleanSetting(true),
    enableSeparateAudioTracks: booleanSetting(false),
    audioOutputMode: StringEnum(['All', 'GameOnly', 'GameAndDiscord'] as const, { default: 'All' }),
    videoQualityPreset: StringEnum(PRESET_NAMES, { default: 'high' }),
    clipQualityPreset: StringEnum(PRESET_NAMES, { default: 'standard' }),
    confirmBeforeDeleting: booleanSetting(false),
    removeOriginalAfterCompression: booleanSetting(false),
    discardSessionsWithoutBookmarks: booleanSetting(false),
    disableWindowsGameMode: booleanSetting(
      false,
      "Turns Windows' Game Mode off (Windows only; kept elsewhere); turning this off again restores the user's own values",
    ),
    wireDialect: StringEnum(WIRE_DIALECTS, {
      default: 'spec',
      description:
        'Extension: the names a connection that does not ask for a dialect gets; `reference` for the reference frontend. --dialect and KEYFRAME_DIALECT take precedence',
    }),
    menuItems: Type.Array(MenuItem, { default: MENU_ITEMS.map((id) => ({ id, visible: true })) }),
    defaultMenuItem: StringEnum(MENU_ITEMS, { default: 'Full Sessions' }),
    ...desktopNotificationSettings,
    allowedOrigins: Type.Array(Type.String({ pattern: '^https?://' }), {
      default: [],
      description:
        'Extension, read-only: web origins allowed to open the WebSocket, from --allowed-origin and KEYFRAME_ALLOWED_ORIGINS; UpdateSettings cannot change it',
    }),
  },
  { additionalProperties: true, description: 'Unknown keys are kept as they are' },
);
export type Settings = Static<typeof Settings>;

/** `UpdateSettings` takes any subset of the fields; the merged result is validated against `Settings`. */
export const SettingsChanges = Type.Partial(Settings, { additionalProperties: true });
export type SettingsChanges = Static<typeof SettingsChanges>;
