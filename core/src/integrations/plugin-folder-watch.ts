// Tells the running service that the user plugins folder or the approvals file changed (an install, a
// removal, an approval written by `keyframe plugin install`), once a burst of changes has settled: npm
// writes hundreds of files for one install.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

export const PLUGIN_WATCH_DEBOUNCE_MS = 400;

export interface PluginFolderWatchOptions {
  /** The user plugins folder (`<data>/plugins/node_modules`); created when missing, so that it can be watched. */
  pluginFolder: string;
  approvalsFile: string;
  changed(): void;
  debounceMs?: number;
}

export class PluginFolderWatch {
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly watcher: FSWatcher,
    private readonly options: PluginFolderWatchOptions,
  ) {
    watcher.on('all', () => this.schedule());
  }

  static async start(options: PluginFolderWatchOptions): Promise<PluginFolderWatch> {
    await mkdir(options.pluginFolder, { recursive: true, mode: 0o755 });
    // Depth 2 sees a package appear (`x/`, `@scope/x/`) and its package.json change; npm's own
    // `<data>/plugins/package-lock.json`, written last, is beside the folder.
    const watcher = watch([path.dirname(options.pluginFolder), options.approvalsFile], { ignoreInitial: true, depth: 2 });
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return new PluginFolderWatch(watcher, options);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.options.changed(), this.options.debounceMs ?? PLUGIN_WATCH_DEBOUNCE_MS);
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.watcher.close();
  }
}
