// What a refused command failed to do, in the words a person reads on its toast. Typed against every
// command the protocol has: a new command does not build until it has its phrase here.
import type { CommandName } from '@keyframe/core/protocol';

export const COMMAND_FAILURE_TITLES = {
  StartRecording: "Couldn't start the recording",
  StopRecording: "Couldn't stop the recording",
  Login: "Couldn't sign in",
  Logout: "Couldn't sign out",
  CreateClip: "Couldn't make the clip",
  CancelClip: "Couldn't cancel the clip",
  CreateAiClip: "Couldn't make the highlight",
  DeleteContent: "Couldn't delete the video",
  DeleteMultipleContent: "Couldn't delete the videos",
  RenameContent: "Couldn't rename the video",
  ImportFile: "Couldn't import the videos",
  UploadContent: "Couldn't upload the video",
  CancelUpload: "Couldn't cancel the upload",
  CompressVideo: "Couldn't compress the video",
  AddBookmark: "Couldn't add the bookmark",
  DeleteBookmark: "Couldn't remove the bookmark",
  UpdateSettings: "Couldn't save the settings",
  SetVideoLocation: "Couldn't change the video folder",
  SetCacheLocation: "Couldn't change the cache folder",
  ApplyVideoPreset: "Couldn't apply the video preset",
  ApplyClipPreset: "Couldn't apply the clip preset",
  SelectGameExecutable: "Couldn't add the game",
  OpenFileLocation: "Couldn't open the folder",
  CopyFileToClipboard: "Couldn't copy the video",
  OpenInBrowser: "Couldn't open the link",
  OpenLogsLocation: "Couldn't open the logs folder",
  ToggleFullscreen: "Couldn't switch full screen",
  CheckForUpdates: "Couldn't check for updates",
  ApplyUpdate: "Couldn't install the update",
  NewConnection: "Couldn't load Keyframe's state",
  StorageWarningConfirm: "Couldn't answer the storage warning",
  RecoveryConfirm: "Couldn't recover the video",
  MigrateContent: "Couldn't move the videos",
  SaveReplayBuffer: "Couldn't save the replay",
  ApproveIntegration: "Couldn't allow the integration",
  RevokeIntegration: "Couldn't withdraw the integration's approval",
  RefreshStorageStats: "Couldn't measure the storage",
  LoginWithDiscord: "Couldn't sign in with Discord",
  CancelDiscordLogin: "Couldn't cancel the Discord sign-in",
  RequestState: "Couldn't refresh Keyframe's state",
  TogglePreview: "Couldn't switch the preview",
  SetFavorite: "Couldn't change the favourites",
  CancelAiClip: "Couldn't cancel the highlight",
  CancelCompression: "Couldn't cancel the compression",
  CancelImport: "Couldn't cancel the import",
} as const satisfies Record<CommandName, string>;

const titles: Partial<Record<string, string>> = COMMAND_FAILURE_TITLES;

/** The toast title for a refusal of `method` (null when the frame named no command). */
export function commandFailureTitle(method: string | null): string {
  if (method === null) return "The service couldn't read a message";
  return (Object.hasOwn(titles, method) ? titles[method] : undefined) ?? 'Something went wrong';
}
