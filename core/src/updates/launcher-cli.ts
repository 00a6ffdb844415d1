#!/usr/bin/env node
// The `keyframe-launcher` command: runs the service of a self-updating installation (see launcher.ts).
import { parseArgs } from 'node:util';
import path from 'node:path';
import { INSTALL_ROOT_VARIABLE, InstallRoot } from './install-root.js';
import { Launcher } from './launcher.js';

const USAGE = `Usage: keyframe-launcher [--root <folder>] [--entry <file>] [--ready-timeout <seconds>] [--node <file>] [--headless] [-- <service options>]

Runs <root>/current/<entry> (default core/dist/main.js) as the desktop app (\`keyframe --app\`: the app window
and the tray; a second launch brings the running one's window to the front), starts it again after it applied
an update, and rolls back to the previous version when the new one does not become ready within the timeout
(default 60 s). --node names the Node runtime that runs the service (default: the one running the launcher;
an installation passes its own <root>/runtime/node). --headless runs the service alone, without window or tray. The root defaults to
$${INSTALL_ROOT_VARIABLE}. Options after -- go to the service (e.g. --data-dir, --port, --minimised).`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      root: { type: 'string' },
      entry: { type: 'string', default: 'core/dist/main.js' },
      'ready-timeout': { type: 'string', default: '60' },
      node: { type: 'string' },
      headless: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const rootFolder = values.root ?? process.env[INSTALL_ROOT_VARIABLE];
  if (!rootFolder) throw new Error(`no install root: pass --root <folder> or set ${INSTALL_ROOT_VARIABLE}`);
  const readyTimeoutSeconds = Number(values['ready-timeout']);
  if (!(readyTimeoutSeconds > 0))
    throw new Error(`--ready-timeout must be a positive number of seconds, not ${JSON.stringify(values['ready-timeout'])}`);
  const launcher = new Launcher({
    root: new InstallRoot(path.resolve(rootFolder)),
    entry: values.entry,
    args: values.headless ? positionals : ['--app', ...positionals],
    readyTimeoutMs: readyTimeoutSeconds * 1000,
    nodePath: values.node && path.resolve(values.node),
    log: (message) => console.error(`keyframe-launcher: ${message}`),
  });
  process.on('SIGINT', () => launcher.stop('SIGINT'));
  process.on('SIGTERM', () => launcher.stop('SIGTERM'));
  return launcher.run();
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`keyframe-launcher: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
