// Where integration packages are looked for: the folders named in KEYFRAME_PLUGIN_DIRS, the install's
// own packages, and the user's plugins folder. Never the `node_modules` folders above the install: on
// Windows any local user can create `C:\node_modules\<package>`, and its code would run in everyone's Keyframe.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `environment`: named in KEYFRAME_PLUGIN_DIRS by whoever starts the service (development).
 * `install`: shipped with, or installed beside, this Keyframe. Both are trusted.
 * `user`: the user plugins folder; each package there waits for the user's approval.
 */
export type PluginSource = 'environment' | 'install' | 'user';

export interface PluginFolder {
  path: string;
  source: PluginSource;
}

/** `@keyframe/core`'s own folder, as Node resolved it (symbolic links followed). */
export const corePackageRoot = () => fileURLToPath(new URL('../../', import.meta.url));

/**
 * The install's own package folders. An npm install puts core at `<prefix>/node_modules/@keyframe/core`:
 * that `node_modules` folder and core's own. A development checkout has core at `<repository>/core`:
 * the workspace's `plugins/` and `node_modules/` folders.
 */
export function installPluginFolders(coreRoot: string = corePackageRoot()): string[] {
  const core = path.resolve(coreRoot);
  const scope = path.dirname(core);
  const containing = path.dirname(scope);
  if (path.basename(scope) === '@keyframe' && path.basename(containing) === 'node_modules') {
    return [containing, path.join(core, 'node_modules')];
  }
  return [path.join(scope, 'plugins'), path.join(scope, 'node_modules')];
}

/** In order of precedence: the first package to claim a key wins. */
export function defaultPluginFolders(dataFolder: string, variables: NodeJS.ProcessEnv = process.env, coreRoot?: string): PluginFolder[] {
  const extra = (variables.KEYFRAME_PLUGIN_DIRS ?? '').split(path.delimiter).filter(Boolean);
  return [
    ...extra.map((folder) => ({ path: path.resolve(folder), source: 'environment' as const })),
    ...installPluginFolders(coreRoot).map((folder) => ({ path: folder, source: 'install' as const })),
    { path: userPluginFolder(dataFolder), source: 'user' },
  ];
}

/** `npm install --prefix <data>/plugins <package>` puts a user's plugins here. */
export const userPluginFolder = (dataFolder: string) => path.join(dataFolder, 'plugins', 'node_modules');
