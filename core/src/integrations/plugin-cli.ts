// `keyframe plugin install|list|remove|check`: manage the integrations of the user plugins folder, and
// tell a plugin author what the service would say about their package.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ServiceOptions } from '../service-options.js';
import { appVersion } from '../support/app-version.js';
import { toWirePath } from '../protocol/wire-format.js';
import { approvalsFile, PluginApprovals } from './plugin-approvals.js';
import { checkHostVersion, checkTrust, discoverPlugins, inspectPackage } from './plugin-discovery.js';
import { defaultPluginFolders } from './plugin-folders.js';
import { readPackageIdentity } from './package-json.js';
import { installPlugin, removePlugin } from './plugin-installer.js';
import { requireNpm } from './plugin-npm.js';

export const PLUGIN_USAGE = `Usage:
  keyframe plugin install <file.tgz | folder | package name> [--data-dir <folder>]
      Installs an integration into the user plugins folder and approves it; a running Keyframe loads it.
  keyframe plugin list [--data-dir <folder>]
      Lists the integrations Keyframe finds, with where they come from and whether they run.
  keyframe plugin remove <package name> [--data-dir <folder>]
      Uninstalls a package installed in the user plugins folder and withdraws its approval.
  keyframe plugin check [folder]
      Says what Keyframe would say about the package in <folder> (default: this one); exit 1 when refused.`;

/** Runs one subcommand; the exit code (1: refused or failed). */
export async function runPluginCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { 'data-dir': { type: 'string' }, help: { type: 'boolean' } },
  });
  const [action, target] = positionals;
  if (values.help) return print(PLUGIN_USAGE);
  const dataFolder = () => ServiceOptions.fromEnvironment({ dataFolder: values['data-dir'] }).dataFolder;
  const context = () => ({
    dataFolder: dataFolder(),
    hostVersion: appVersion(),
    npm: requireNpm(),
    say: (line: string) => console.log(line),
  });
  switch (action) {
    case 'install':
      if (!target) break;
      await installPlugin(target, context());
      return 0;
    case 'remove':
      if (!target) break;
      await removePlugin(target, context());
      return 0;
    case 'list':
      return listPlugins(dataFolder());
    case 'check':
      return checkPackage(path.resolve(target ?? '.'));
  }
  throw new Error(
    `expected "plugin install <package>", "plugin list", "plugin remove <name>" or "plugin check [folder]"\n\n${PLUGIN_USAGE}`,
  );
}

function print(text: string): number {
  console.log(text);
  return 0;
}

interface ListedPackage {
  key: string;
  packageName: string;
  version: string;
  source: string;
  status: string;
}

async function listPlugins(dataFolder: string): Promise<number> {
  const approvals = new PluginApprovals(approvalsFile(dataFolder));
  const damaged = await approvals.load();
  if (damaged) console.error(`warning: ${damaged}`);
  const { plugins, refused } = await discoverPlugins(defaultPluginFolders(dataFolder));
  const rows: ListedPackage[] = plugins.map((plugin) => ({
    key: plugin.manifest.integration.key,
    packageName: plugin.packageName,
    version: plugin.version,
    source: plugin.source,
    status:
      plugin.contentHash === undefined
        ? 'loaded'
        : approvals.isApproved(plugin.manifest.integration.key, toWirePath(plugin.packageRoot), plugin.contentHash)
          ? 'loaded (approved)'
          : 'waiting for approval',
  }));
  for (const refusal of refused) {
    const identity = await readPackageIdentity(refusal.packageRoot);
    rows.push({
      key: refusal.key ?? '-',
      packageName: identity.packageName ?? refusal.packageRoot,
      version: identity.version ?? '-',
      source: '-',
      status: `refused: ${refusal.reason}`,
    });
  }
  const header: ListedPackage = { key: 'KEY', packageName: 'PACKAGE', version: 'VERSION', source: 'SOURCE', status: 'STATUS' };
  const columns = ['key', 'packageName', 'version', 'source'] as const;
  const widths = columns.map((column) => Math.max(...[header, ...rows].map((row) => row[column].length)));
  for (const row of [header, ...rows])
    console.log([...columns.map((column, index) => row[column].padEnd(widths[index]!)), row.status].join('  '));
  return 0;
}

/** What discovery would say about the package in `folder` once installed: manifest, compatibility, folder permissions, warnings. */
async function checkPackage(folder: string): Promise<number> {
  const refuse = (reason: string, warnings: readonly string[] = []) => {
    for (const warning of warnings) console.log(`warning: ${warning}`);
    console.error(`refused: ${reason}`);
    return 1;
  };
  const { packageName } = await readPackageIdentity(folder);
  if (!packageName) return refuse(`${path.join(folder, 'package.json')} is missing, not JSON, or names no package`);
  const inspected = await inspectPackage(folder, 'user', { developmentFolder: true });
  if (!inspected) return refuse(`${packageName} is not a Keyframe integration: its package.json has no "keyframe" block`);
  if ('reason' in inspected) return refuse(inspected.reason, inspected.warnings);
  const compatible = await checkHostVersion(inspected, appVersion());
  if ('reason' in compatible) return refuse(compatible.reason, compatible.warnings);
  // The folder's own permissions; no fingerprint: the installed package's is of what npm pack puts in it.
  const trusted = await checkTrust({ ...compatible, source: 'environment' }, folder, path.dirname(folder));
  if ('reason' in trusted) return refuse(trusted.reason, trusted.warnings);
  if (!existsSync(trusted.entry))
    return refuse(`its entry module ${trusted.entry} does not exist: build the package first`, trusted.warnings);
  for (const warning of trusted.warnings) console.log(`warning: ${warning}`);
  const { key, displayName } = trusted.manifest.integration;
  console.log(`${trusted.packageName} ${trusted.version}: integration ${key} ("${displayName}") for Keyframe ${appVersion()}: accepted.`);
  return 0;
}
