// `keyframe plugin install` and `remove`: puts a package into the user plugins folder with npm, and takes
// it out again. Installing is the user's act of trust: the installed contents' hash is approved.
//
// npm runs with `--legacy-peer-deps`: a plugin's peer `@keyframe/core` (and tsyringe, reflect-metadata) is
// on no registry, and the running service gives the plugin its own copies anyway (shared-modules.ts).
// `--ignore-scripts`: no code of the package runs before the user's approval, install scripts included.
// npm rather than extracting the tarball here: the plugin's own dependencies are installed beside it, and
// npm keeps `<data>/plugins/package.json` and its lock file right for the next install or removal.
import { randomUUID, createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toWirePath } from '../protocol/wire-format.js';
import { approvalsFile, PluginApprovals } from './plugin-approvals.js';
import { checkHostVersion, discoverPlugins, inspectPackage, type DiscoveredPlugin } from './plugin-discovery.js';
import { defaultPluginFolders, userPluginFolder } from './plugin-folders.js';
import { readPackageIdentity } from './package-json.js';
import { runNpm, type NpmCommand } from './plugin-npm.js';

export interface InstallContext {
  dataFolder: string;
  hostVersion: string;
  npm: NpmCommand;
  /** What the user is told, line by line. */
  say(line: string): void;
}

const NPM_FLAGS = ['--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'];

/** `<data>/plugins`: npm's prefix; its `node_modules` is the user plugins folder. */
const pluginsPrefix = (dataFolder: string) => path.dirname(userPluginFolder(dataFolder));
/** The tarballs installed packages came from: `<data>/plugins/package.json` refers to them, so they stay. */
const tarballFolder = (dataFolder: string) => path.join(pluginsPrefix(dataFolder), 'packages');

/** Installs a tarball, a package folder or a registry name; refuses, before touching the folder, what the service would refuse. */
export async function installPlugin(spec: string, context: InstallContext): Promise<void> {
  const staging = await mkdtemp(path.join(os.tmpdir(), 'keyframe-plugin-'));
  try {
    const tarball = await packedTarball(spec, staging, context.npm);
    const plugin = await preflight(tarball, staging, context);
    for (const warning of plugin.warnings) context.say(`warning: ${warning}`);
    const { saved, created } = await keepTarball(tarball, plugin, context.dataFolder);
    const prefix = pluginsPrefix(context.dataFolder);
    await runNpm(context.npm, ['install', '--prefix', prefix, '--save', ...NPM_FLAGS, saved], prefix).catch(async (error: unknown) => {
      if (created) await rm(saved, { force: true });
      throw error;
    });
    await removeOtherTarballs(plugin.packageName, saved, context.dataFolder);
    await approveInstalled(plugin, context);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** A tarball as it is; a folder or a name packed by npm first (a folder exactly as it would be published). */
async function packedTarball(spec: string, staging: string, npm: NpmCommand): Promise<string> {
  const info = await stat(spec).catch(() => undefined);
  if (info?.isFile()) return path.resolve(spec);
  const target = info?.isDirectory() ? path.resolve(spec) : spec;
  await runNpm(npm, ['pack', target, '--pack-destination', staging, '--ignore-scripts'], staging);
  const packed = (await readdir(staging)).find((name) => name.endsWith('.tgz'));
  if (!packed) throw new Error(`npm pack ${target} made no tarball`);
  return path.join(staging, packed);
}

/** Extracts the tarball in the staging folder and inspects it the way discovery will once it is installed. */
async function preflight(tarball: string, staging: string, context: InstallContext): Promise<DiscoveredPlugin> {
  const folder = path.join(staging, 'package');
  await mkdir(folder);
  const { extract } = await import('tar');
  await extract({ file: tarball, cwd: folder, strip: 1 }).catch((error: unknown) => {
    throw new Error(`${tarball} is not a package tarball: ${error instanceof Error ? error.message : String(error)}`);
  });
  const name = (await readPackageIdentity(folder)).packageName ?? path.basename(tarball);
  const inspected = await inspectPackage(folder, 'user');
  if (!inspected)
    throw new Error(`${name} is not a Keyframe integration: its package.json has no "keyframe" block. Nothing was installed.`);
  const compatible = 'reason' in inspected ? inspected : await checkHostVersion(inspected, context.hostVersion);
  if ('reason' in compatible) throw new Error(`${name} cannot be installed: ${compatible.reason}. Nothing was installed.`);
  if (!existsSync(compatible.entry)) {
    const entry = path.relative(folder, compatible.entry).split(path.sep).join('/');
    throw new Error(
      `${name} cannot be installed: its entry module ${entry} is not in the package (build it before packing). Nothing was installed.`,
    );
  }
  const key = compatible.manifest.integration.key;
  const owner = (await discoverPlugins(defaultPluginFolders(context.dataFolder), context.hostVersion)).plugins.find(
    (plugin) => plugin.manifest.integration.key === key && plugin.packageName !== compatible.packageName,
  );
  if (owner)
    throw new Error(`${name} cannot be installed: the key ${key} is already provided by ${owner.packageName} (${owner.packageRoot}).`);
  return compatible;
}

/** Copies the tarball beside the plugins (named after its contents, so one of the same contents is reused, never replaced). */
async function keepTarball(tarball: string, plugin: DiscoveredPlugin, dataFolder: string): Promise<{ saved: string; created: boolean }> {
  const digest = createHash('sha256')
    .update(await readFile(tarball))
    .digest('hex')
    .slice(0, 12);
  const saved = path.join(tarballFolder(dataFolder), `${tarballStem(plugin.packageName)}-${plugin.version}-${digest}.tgz`);
  await mkdir(path.dirname(saved), { recursive: true });
  if (existsSync(saved)) return { saved, created: false };
  const temporary = `${saved}.${randomUUID()}.tmp`;
  await copyFile(tarball, temporary);
  await rename(temporary, saved);
  return { saved, created: true };
}

const tarballStem = (packageName: string) => packageName.replace(/^@/, '').replace(/\//g, '-');

/** The tarballs of earlier installs of this package, which this command kept (an upgrade leaves them unused). */
async function removeOtherTarballs(packageName: string, keep: string, dataFolder: string): Promise<void> {
  const folder = tarballFolder(dataFolder);
  const stem = tarballStem(packageName).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ours = new RegExp(`^${stem}-\\d[^/]*-[0-9a-f]{12}\\.tgz$`);
  for (const name of await readdir(folder).catch(() => [])) {
    if (ours.test(name) && path.join(folder, name) !== keep) await rm(path.join(folder, name), { force: true });
  }
}

/** Finds the installed package as the service will, and approves its contents' hash. */
async function approveInstalled(expected: DiscoveredPlugin, context: InstallContext): Promise<void> {
  const root = await realpath(path.join(userPluginFolder(context.dataFolder), ...expected.packageName.split('/')));
  const { plugins, refused } = await discoverPlugins(defaultPluginFolders(context.dataFolder), context.hostVersion);
  const refusal = refused.find((candidate) => candidate.packageRoot === root);
  if (refusal) {
    throw new Error(
      `${expected.packageName} was installed in ${root}, but Keyframe refuses it: ${refusal.reason}. ` +
        `Remove it with: keyframe plugin remove ${expected.packageName}`,
    );
  }
  const installed = plugins.find((plugin) => plugin.packageRoot === root);
  if (!installed?.contentHash) throw new Error(`${expected.packageName} was installed, but Keyframe does not find it in ${root}`);
  const key = installed.manifest.integration.key;
  await new PluginApprovals(approvalsFile(context.dataFolder)).approve(key, toWirePath(root), installed.contentHash);
  context.say(
    `Installed ${installed.packageName} ${installed.version} (integration ${key}, "${installed.manifest.integration.displayName}") in ${root}`,
  );
  context.say(`Approved its contents (SHA-256 ${installed.contentHash}).`);
  context.say('A running Keyframe loads a new integration now; an update of one it already runs takes effect when Keyframe restarts.');
}

/** Uninstalls a package of the user plugins folder and withdraws its approval; nothing else is touched. */
export async function removePlugin(packageName: string, context: InstallContext): Promise<void> {
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(packageName)) throw new Error(`"${packageName}" is not a package name`);
  const folder = userPluginFolder(context.dataFolder);
  const root = path.join(folder, ...packageName.split('/'));
  if (!existsSync(path.join(root, 'package.json'))) {
    throw new Error(
      `${packageName} is not installed in ${folder}: keyframe plugin remove removes only packages there (see keyframe plugin list)`,
    );
  }
  const inspected = await inspectPackage(root, 'user');
  const key = inspected && ('reason' in inspected ? inspected.key : inspected.manifest.integration.key);
  const prefix = pluginsPrefix(context.dataFolder);
  const wirePath = toWirePath(await realpath(root));
  await runNpm(context.npm, ['uninstall', '--prefix', prefix, ...NPM_FLAGS, packageName], prefix);
  await removeOtherTarballs(packageName, '', context.dataFolder);
  if (key) await new PluginApprovals(approvalsFile(context.dataFolder)).revoke(key, wirePath);
  context.say(`Removed ${packageName}${key ? ` (integration ${key}) and its approval` : ''}.`);
  context.say('A running Keyframe keeps it loaded until it restarts.');
}
