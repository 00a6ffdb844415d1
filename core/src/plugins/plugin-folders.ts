// Where integration packages are looked for: the workspace `plugins/` folder (development), every
// `node_modules` folder above this package (installed plugins), and the user's plugins folder.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const corePackageRoot = () => fileURLToPath(new URL('../../', import.meta.url));

export function defaultPluginFolders(dataFolder: string, variables: NodeJS.ProcessEnv = process.env): string[] {
  const extra = (variables.KEYFRAME_PLUGIN_DIRS ?? '').split(path.delimiter).filter(Boolean);
  const root = corePackageRoot();
  const nodeModules: string[] = [];
  for (let folder = path.dirname(root); ; folder = path.dirname(folder)) {
    nodeModules.push(path.join(folder, 'node_modules'));
    if (path.dirname(folder) === folder) break;
  }
  return [...extra, path.join(path.dirname(root), 'plugins'), ...nodeModules, userPluginFolder(dataFolder)];
}

/** `npm install --prefix <data>/plugins <package>` puts a user's plugins here. */
export const userPluginFolder = (dataFolder: string) => path.join(dataFolder, 'plugins', 'node_modules');
