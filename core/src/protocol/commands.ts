// Commands, frontend to backend: `{Method, Parameters}`. One entry per Method with the schema of its
// Parameters. SPEC's parameters as written; "not shown" ones from protocol-gaps.md §5 with neutral names.
import { Type, type Static, type TSchema } from '#typebox';
import { ContentHash, ContentItemReference, ContentType, BookmarkType, Duration, PresetName, Segment, StringEnum } from './models.js';
import { SettingsChanges } from './settings.js';

export interface CommandDefinition<P extends TSchema = TSchema> {
  readonly parameters: P;
  readonly summary: string;
  /** True for commands this service adds to SPEC's list. */
  readonly extension?: boolean;
}

const define = <P extends TSchema>(parameters: P, summary: string, extension = false): CommandDefinition<P> => ({
  parameters,
  summary,
  extension,
});

const strict = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });

export const NoParameters = strict({});
const text = (description?: string) => Type.String({ minLength: 1, description });
const filePath = text('Path of a library file');

export const Commands = {
  StartRecording: define(NoParameters, 'Starts a manual recording'),
  StopRecording: define(NoParameters, 'Stops the current recording'),
  Login: define(strict({ accessToken: text(), refreshToken: text() }), 'Signs in with tokens from the identity provider'),
  Logout: define(NoParameters, 'Signs out the current user'),
  CreateClip: define(
    strict({
      Segments: Type.Array(Segment, { minItems: 1 }),
      OutputMode: Type.Optional(
        StringEnum(['combined', 'separate'] as const, {
          description: 'Extension: `separate` makes one clip per segment; default `combined`',
        }),
      ),
    }),
    'Creates a clip from segments; progress via ClipProgress',
  ),
  CancelClip: define(strict({ id: Type.Number() }), 'Cancels the clip operation with that id'),
  CreateAiClip: define(
    strict({ FileName: text('Content file name, no extension') }),
    'Creates a highlight of a session; progress via AiProgress',
  ),
  DeleteContent: define(strict({ FileName: text(), ContentType }), 'Deletes one content item'),
  DeleteMultipleContent: define(strict({ Items: Type.Array(ContentItemReference, { minItems: 1 }) }), 'Deletes several items in one batch'),
  RenameContent: define(strict({ FileName: text(), ContentType, Title: Type.String() }), 'Renames a content item (file and title)'),
  ImportFile: define(
    strict({
      sectionId: StringEnum(['sessions', 'replayBuffer'] as const, {
        description: '`sessions` imports as Session, `replayBuffer` as Buffer',
      }),
      FilePaths: Type.Optional(Type.Array(text(), { minItems: 1, description: 'Extension: files to import without a picker' })),
    }),
    'Imports external video files; progress via ImportProgress',
  ),
  UploadContent: define(
    strict({
      FilePath: filePath,
      Title: Type.String(),
      Game: Type.Optional(Type.String()),
      Description: Type.Optional(Type.String()),
      GameDatabaseId: Type.Optional(Type.String()),
      Visibility: Type.Optional(StringEnum(['Public', 'Unlisted', 'Private'] as const)),
      JWT: Type.Optional(Type.String({ description: 'Ignored: the stored token is used' })),
    }),
    'Uploads a library file; progress via UploadProgress',
  ),
  CancelUpload: define(strict({ fileName: text('File name with extension, as in UploadProgress') }), 'Cancels the upload of that file'),
  CompressVideo: define(strict({ FilePath: filePath }), 'Compresses a video; progress via CompressionProgress'),
  AddBookmark: define(
    strict({
      FilePath: filePath,
      Type: BookmarkType,
      Time: Duration,
      ContentType,
      Id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
    }),
    'Adds a bookmark to a library item',
  ),
  DeleteBookmark: define(strict({ FilePath: filePath, ContentType, Id: Type.Integer() }), 'Removes a bookmark'),
  UpdateSettings: define(SettingsChanges, 'Merges the given settings values; echoes Settings when something changed'),
  SetVideoLocation: define(strict({ Path: Type.Optional(text('Extension: the folder, without a picker')) }), 'Changes the content folder'),
  SetCacheLocation: define(strict({ Path: Type.Optional(text('Extension: the folder, without a picker')) }), 'Changes the cache folder'),
  ApplyVideoPreset: define(strict({ preset: PresetName }), 'Applies a video quality preset'),
  ApplyClipPreset: define(strict({ preset: PresetName }), 'Applies a clip quality preset'),
  SelectGameExecutable: define(
    strict({ FilePath: Type.Optional(text('Extension: the executable, without a picker')) }),
    'Picks a game executable; result via SelectedGameExecutable',
  ),
  OpenFileLocation: define(strict({ FilePath: filePath }), 'Opens the file manager at the file'),
  CopyFileToClipboard: define(strict({ FilePath: filePath }), 'Copies the file to the clipboard as a file'),
  OpenInBrowser: define(strict({ Url: text('http or https URL') }), 'Opens the URL in the default browser'),
  OpenLogsLocation: define(NoParameters, 'Opens the file manager at the logs folder'),
  ToggleFullscreen: define(strict({ enabled: Type.Boolean() }), 'Toggles fullscreen in the desktop host'),
  CheckForUpdates: define(NoParameters, 'Checks for application updates'),
  ApplyUpdate: define(NoParameters, 'Applies a downloaded update and restarts'),
  NewConnection: define(NoParameters, 'Asks for the initial state: Settings, State, GameList, AppVersion, UpdateProgress, ReleaseNotes'),
  StorageWarningConfirm: define(
    strict({
      warningId: text(),
      confirmed: Type.Boolean(),
      action: Type.String(),
      actionData: Type.Optional(Type.Unknown()),
    }),
    'Confirms or cancels the action of a StorageWarning',
  ),
  RecoveryConfirm: define(
    strict({
      recoveryId: text(),
      action: StringEnum(['recover', 'delete', 'skip'] as const),
      gameOverride: Type.Optional(Type.String()),
    }),
    'Recovers, deletes or skips one file of a RecoveryPrompt',
  ),
  MigrateContent: define(NoParameters, 'Moves library items into the canonical folder layout; progress via ContentMigrationProgress'),
  SaveReplayBuffer: define(
    NoParameters,
    'Saves the last replayBufferDuration seconds of the recording (Buffer or Hybrid mode) as a Buffer item; ReplayBufferSaved when written (the SaveReplayBuffer keybind)',
    true,
  ),
  ApproveIntegration: define(
    strict({
      key: text("The integration's settings key, as in State.integrations"),
      hash: ContentHash,
    }),
    'Lets a pending third-party integration run; refused unless `hash` is that of the package on disk now (State.integrations[key].approval.hash)',
    true,
  ),
  RevokeIntegration: define(
    strict({ key: text("The integration's settings key") }),
    'Withdraws the approval of a third-party integration: it stops and waits for approval again',
    true,
  ),
  RefreshStorageStats: define(
    NoParameters,
    'Measures the content folder and its drive again; answered with State (currentFolderSizeGb, recordingDriveUsedGb, recordingDriveFreeGb)',
    true,
  ),
  LoginWithDiscord: define(
    NoParameters,
    'Signs in through Discord in the browser; answered with DiscordLoginResult (at once, with a failure, where that sign-in is not available)',
    true,
  ),
  CancelDiscordLogin: define(NoParameters, 'Abandons a pending Discord sign-in; answered with DiscordLoginResult `cancelled`', true),
  RequestState: define(
    NoParameters,
    'Asks for the full State again (Incremental State: a connection that missed a StatePatch resynchronises)',
    true,
  ),
  CancelAiClip: define(
    strict({ id: text('The AiProgress id') }),
    'Cancels the highlight being made: its ffmpeg stops, nothing it wrote stays; AiProgress ends with -1 and `cancelled`',
    true,
  ),
  CancelCompression: define(
    strict({ filePath: text('The video being compressed, as in CompressionProgress') }),
    'Cancels the compression of that video, which stays as it was; CompressionProgress ends with -1 and `cancelled`',
    true,
  ),
  CancelImport: define(
    strict({ id: Type.Integer({ description: 'The ImportProgress id' }) }),
    'Cancels the import: the file being copied is not imported, files already imported stay; ImportProgress ends with -1 and `cancelled`',
    true,
  ),
  TogglePreview: define(
    NoParameters,
    'Switches the live preview of the recording on or off: RecordingPreviewState, then RecordingPreviewFrame about 10 per second (the TogglePreview keybind)',
    true,
  ),
  SetFavorite: define(
    strict({ FilePath: filePath, ContentType, Favorite: Type.Boolean() }),
    'Marks a library item as a favourite (Favorite true) or not; kept in its metadata, answered with State',
    true,
  ),
} as const satisfies Record<string, CommandDefinition>;

export type CommandName = keyof typeof Commands;
export type CommandParametersMap = { [M in CommandName]: Static<(typeof Commands)[M]['parameters']> };
export type CommandParameters<M extends CommandName> = CommandParametersMap[M];

export const CommandEnvelope = Type.Object({
  Method: Type.String({ minLength: 1 }),
  Parameters: Type.Optional(Type.Unknown()),
});
export type CommandEnvelope = Static<typeof CommandEnvelope>;

export const isCommandName = (method: string): method is CommandName => Object.hasOwn(Commands, method);
