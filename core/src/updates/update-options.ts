// How this process updates itself: the update channel (KEYFRAME_UPDATE_FEED_URL) and, when the
// launcher started it, the install root that new versions are unpacked into.
import { INSTALL_ROOT_VARIABLE, ROLLED_BACK_FROM_VARIABLE } from './install-root.js';

export const UPDATE_FEED_VARIABLE = 'KEYFRAME_UPDATE_FEED_URL';

export interface UpdateOptions {
  /** The JSON feed of releases; undefined: no update channel, checks are refused. */
  feedUrl: string | undefined;
  /** Set only when running under keyframe-launcher (which also gives us an IPC channel). */
  installRoot: string | undefined;
  /** The version the launcher rolled back from before starting this one. */
  rolledBackFrom: string | undefined;
}
export const UPDATE_OPTIONS = Symbol('UpdateOptions');

export function updateOptions(
  variables: NodeJS.ProcessEnv = process.env,
  hasLauncherChannel = typeof process.send === 'function',
): UpdateOptions {
  const installRoot = hasLauncherChannel ? variables[INSTALL_ROOT_VARIABLE] || undefined : undefined;
  return {
    feedUrl: variables[UPDATE_FEED_VARIABLE]?.trim() || undefined,
    installRoot,
    rolledBackFrom: installRoot ? variables[ROLLED_BACK_FROM_VARIABLE] || undefined : undefined,
  };
}
