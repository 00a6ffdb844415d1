// `keyframe tape record <key> [--out file]` and `keyframe tape play <file>`: record an integration's
// live feeds while someone plays, and replay a tape into the installed integration.
import { existsSync } from 'node:fs';
import { isError } from '../support/errors.js';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { dataFolderPushToken, LiveFeeds } from '../feeds/live/index.js';
import { readTape } from '../feeds/tape/tape-format.js';
import { playTape } from './tape-player.js';
import { TapeWriter } from '../feeds/tape/tape-writer.js';
import type { DetectedGame, PluginLogger } from '../sdk/game-integration.js';
import { IntegrationLifecycle } from './lifecycle.js';
import { systemClock } from './plugin-container.js';
import { discoverPlugins, inspectPackage, type DiscoveredPlugin } from './plugin-discovery.js';
import { approvalsFile, PluginApprovals } from './plugin-approvals.js';
import { defaultPluginFolders, userPluginFolder } from './plugin-folders.js';
import { shareHostModules } from './shared-modules.js';
import { loadIntegrationClass } from './plugin-loader.js';
import { SystemGamePaths } from './system-game-paths.js';
import { DiskGameFiles } from '../sdk/game-files.js';
import { GameFileLocations, gamePathsIn } from '../feeds/tape/game-file-locations.js';
import { RecordedGameFiles } from '../feeds/tape/recorded-game-files.js';
import { listProcesses } from '../platform/process-list.js';
import { matchGames } from '../games/game-detector.js';
import { ServiceOptions } from '../service-options.js';
import { toWirePath } from '../protocol/wire-format.js';

export const TAPE_USAGE = `Usage:
  keyframe tape record <integration key> [--out <file.tape.jsonl>] [--data-dir <folder>]
      Runs the integration on its live feeds and writes every input to a tape until Ctrl+C,
      with a copy of every game file it reads (in <name>.files/@game/).
  keyframe tape play <file.tape.jsonl> [--data-dir <folder>] [--game-paths <folder>]
      Replays a tape into the integration and prints the bookmarks it adds.
  Both take the integration package of the current folder when it is the one named (a plugin's own
  project, built), else the installed one.
      --game-paths points the integration's GamePaths into <folder>: home/, roaming/, local/ and
      steam/0/, steam/1/… (Steam libraries); game files the tape did not capture are read there.`;

export async function runTapeCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { out: { type: 'string' }, 'data-dir': { type: 'string' }, 'game-paths': { type: 'string' }, help: { type: 'boolean' } },
  });
  const [action, target] = positionals;
  if (values.help) return void console.log(TAPE_USAGE);
  if (!target || (action !== 'record' && action !== 'play'))
    throw new Error(`expected "tape record <key>" or "tape play <file>"\n\n${TAPE_USAGE}`);
  const dataFolder = ServiceOptions.fromEnvironment({ dataFolder: values['data-dir'] }).dataFolder;
  if (action === 'play') return playCommand(target, dataFolder, values['game-paths']);
  return recordCommand(target, values.out ?? `${target}-${new Date().toISOString().replace(/[:.]/g, '-')}.tape.jsonl`, dataFolder);
}

async function findPlugin(key: string, dataFolder: string): Promise<DiscoveredPlugin> {
  const developing = await packageOfCurrentFolder(key);
  if (developing) return developing;
  shareHostModules([userPluginFolder(dataFolder)]);
  const { plugins, refused } = await discoverPlugins(defaultPluginFolders(dataFolder));
  const plugin = plugins.find((candidate) => candidate.manifest.integration.key === key);
  if (plugin) return approvedOrThrow(plugin, dataFolder);
  const refusal = refused.find((candidate) => candidate.key === key);
  throw new Error(
    refusal
      ? `integration ${key} is refused: ${refusal.reason}`
      : `no integration with key ${key} is installed (found: ${plugins.map((found) => found.manifest.integration.key).join(', ') || 'none'})`,
  );
}

/**
 * The integration package the command runs in, when it provides `key`: its author named it by running there, as
 * with KEYFRAME_PLUGIN_DIRS. Its own node_modules (core, installed for building) is the core running this command.
 */
async function packageOfCurrentFolder(key: string): Promise<DiscoveredPlugin | undefined> {
  const inspected = await inspectPackage(process.cwd(), 'environment', { developmentFolder: true });
  const claimed = inspected === undefined ? undefined : 'reason' in inspected ? inspected.key : inspected.manifest.integration.key;
  if (inspected === undefined || claimed !== key) return undefined;
  if ('reason' in inspected) throw new Error(`integration ${key} in ${inspected.packageRoot} is refused: ${inspected.reason}`);
  if (!existsSync(inspected.entry)) throw new Error(`integration ${key}: ${inspected.entry} is not built yet (npm run build)`);
  shareHostModules([inspected.packageRoot]);
  return inspected;
}

/** A third-party package runs here too only once the user approved its contents in the settings. */
async function approvedOrThrow(plugin: DiscoveredPlugin, dataFolder: string): Promise<DiscoveredPlugin> {
  if (plugin.contentHash === undefined) return plugin;
  const approvals = new PluginApprovals(approvalsFile(dataFolder));
  await approvals.load();
  if (approvals.isApproved(plugin.manifest.integration.key, toWirePath(plugin.packageRoot), plugin.contentHash)) return plugin;
  throw new Error(
    `integration ${plugin.manifest.integration.key} (${plugin.packageRoot}) is not approved in these contents: approve it in Settings → Integrations first`,
  );
}

async function playCommand(file: string, dataFolder: string, gamePathsFolder: string | undefined): Promise<void> {
  const tape = await readTape(file);
  const plugin = await findPlugin(tape.header.integration, dataFolder);
  // The service's token: a replay naming the running game's executable leaves the game's config as it is.
  const playback = await playTape(file, {
    pushToken: dataFolderPushToken(dataFolder),
    integrationClass: await loadIntegrationClass(plugin.entry),
    key: tape.header.integration,
    defaultGame: { name: plugin.manifest.integration.games[0]!.name },
    manifest: plugin.manifest,
    ...(gamePathsFolder === undefined ? {} : { gamePaths: gamePathsIn(gamePathsFolder) }),
  });
  console.log(`${path.basename(file)}: ${tape.entries.length} entries, ${playback.bookmarks.length} bookmarks`);
  for (const bookmark of playback.bookmarks) {
    console.log(
      `  ${bookmark.time.toFixed(3).padStart(10)} s  ${bookmark.type}${bookmark.subtype ? ` (${bookmark.subtype})` : ''}${bookmark.recording ? `  recording ${bookmark.recording + 1}` : ''}`,
    );
  }
  if (playback.unconsumed > 0) console.log(`  ${playback.unconsumed} entries went to feeds the integration did not open`);
  for (const reason of playback.degradedReasons) console.log(`  degraded: ${reason}`);
}

async function recordCommand(key: string, out: string, dataFolder: string): Promise<void> {
  const plugin = await findPlugin(key, dataFolder);
  const game = await runningGameOf(plugin);
  // One t = 0 for the tape and for the bookmark times printed while recording.
  const startedAt = new Date();
  const writer = new TapeWriter(
    out,
    { integration: key, game, description: `recorded with keyframe tape record on ${process.platform}` },
    startedAt,
  );
  const logger = consoleLogger(key);
  const pushToken = dataFolderPushToken(dataFolder);
  const gamePaths = new SystemGamePaths();
  const gameFiles = new RecordedGameFiles(new DiskGameFiles(), await GameFileLocations.of(gamePaths), writer);
  let active = true;
  let shown: string | undefined;
  const lifecycle: IntegrationLifecycle = new IntegrationLifecycle({
    key,
    manifest: plugin.manifest,
    packageName: plugin.packageName,
    desired: () => ({ enabled: true, ...(active ? { activeFor: game } : {}) }),
    load: () => loadIntegrationClass(plugin.entry),
    feeds: ({ observe }) =>
      new LiveFeeds({
        logger,
        observe: (entry) => {
          writer.write(entry);
          observe(entry);
        },
        keepsFrames: true,
        pushToken,
      }),
    bookmarks: {
      add: async (request) => {
        const at = request.at ?? new Date();
        console.log(`  ${((at.getTime() - startedAt.getTime()) / 1000).toFixed(3).padStart(10)} s  ${request.type}`);
        return true;
      },
    },
    recorder: { current: { startedAt, game: game.name }, onStarted: () => () => {}, onStopped: () => () => {} },
    enabled: () => true,
    clock: systemClock,
    gamePaths,
    gameFiles,
    pluginLogger: logger,
    logger,
    notify: (title, text) => console.log(`  ${title}: ${text}`),
    // The person recording watches the game: no silence warning.
    watchSilence: false,
    changed: () => {
      if (lifecycle.problem === shown) return;
      shown = lifecycle.problem;
      if (shown) console.log(`  degraded: ${shown}`);
    },
  });
  await lifecycle.reconcile();
  if (lifecycle.phase !== 'active') throw new Error(`${key} did not start: ${lifecycle.failure ?? lifecycle.problem ?? lifecycle.phase}`);
  console.log(`Recording ${key} (${game.name}) to ${out}. Play; press Ctrl+C to finish.`);
  await new Promise<void>((resolve) => process.once('SIGINT', resolve));
  active = false;
  await lifecycle.reconcile();
  console.log(`\n${writer.count} inputs written to ${out}`);
}

/** The integration's game as it runs now, or its first catalog game when none runs. */
async function runningGameOf(plugin: DiscoveredPlugin): Promise<DetectedGame> {
  const [running] = matchGames(await listProcesses(), plugin.manifest.integration.games);
  return running
    ? { name: running.name, executablePath: running.executablePath, pid: running.pid }
    : { name: plugin.manifest.integration.games[0]!.name };
}

/** Prints to stderr; an error among the fields (a handler that threw) is printed with its stack. */
function consoleLogger(key: string): PluginLogger {
  const print =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      if (level === 'debug') return;
      const errors = Object.values(fields).filter(isError);
      const rest = Object.fromEntries(Object.entries(fields).filter(([, value]) => !isError(value)));
      const shown = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
      console.error(`[${key}] ${level}: ${message}${shown}${errors.map((error) => `\n${error.stack ?? error.message}`).join('')}`);
    };
  return { debug: print('debug'), info: print('info'), warn: print('warn'), error: print('error') };
}
