// Plugins in the user's plugins folder are installed with their own dependencies, which npm fills
// with copies of the SDK and the DI container. A second tsyringe never sees the plugin's
// decorators, and a second SDK has its own types: so their imports are sent to the service's copies.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

export const SHARED_PACKAGES = ['@keyframe/core', 'tsyringe', 'reflect-metadata'];

const registered = new Set<string>();

/** Registers the resolve hook once per folder, before any plugin from it is imported. */
export function shareHostModules(pluginFolders: readonly string[]): void {
  const roots = pluginFolders.map((folder) => pathToFileURL(folder).href.replace(/\/?$/, '/')).filter((root) => !registered.has(root));
  if (roots.length === 0) return;
  for (const root of roots) registered.add(root);
  // A path from core/dist's folders, the same from this module's file and from the service's bundle (core/dist/bundle).
  register('../integrations/shared-modules-hook.js', {
    parentURL: import.meta.url,
    data: { hostUrl: import.meta.url, pluginRoots: roots, sharedPackages: SHARED_PACKAGES },
  });
}
