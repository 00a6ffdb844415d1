#!/usr/bin/env node
// The `keyframe` command: runs the service until Ctrl+C or SIGTERM.
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { containerOf, KeyframeService } from './app/keyframe-service.js';
import { DEFAULT_LEGACY_PORT, DEFAULT_PORT, DEFAULT_REFERENCE_MEDIA_PORT, parsePort, ServiceOptions } from './service-options.js';
import { DefaultDialect } from './transport/default-dialect.js';
import { appVersion } from './support/app-version.js';
import { Logger } from './support/logger.js';
import { ReferenceMediaListener } from './transport/reference-media-listener.js';
import { handleProcessFaults } from './support/process-faults.js';
import { runPluginCommand } from './integrations/plugin-cli.js';
import { runTapeCommand } from './integrations/tape-cli.js';
import { RESTART_FOR_UPDATE_EXIT_CODE } from './updates/install-root.js';
import { connectToLauncher } from './updates/launcher-handshake.js';
import { Updater } from './updates/updater.js';
import { MachineCapabilities } from './capabilities/machine-capabilities.js';
import { captureEngineLine, noCaptureEngineLine } from './capabilities/capture-engine-report.js';
import { handOverToRunningKeyframe, loadDesktopApp, systemBrowser, type DesktopApp } from './app/desktop-app.js';
import { DataFolderInUseError } from './support/data-folder-lock.js';

const USAGE = `Usage: keyframe [options]
       keyframe tape record|play …   (keyframe tape --help)
       keyframe plugin install|list|remove|check …   (keyframe plugin --help)

Runs the Keyframe recording service on this machine (loopback only).

Options:
  --app                   also open the UI in an app window (and the tray); when a Keyframe already runs on
                          the data folder, bring its window to the front instead of starting a second one
  --minimised             with --app: start in the tray, without opening the window
  --data-dir <folder>     settings, logs and cache (default: $KEYFRAME_HOME, else the per-user config folder)
  --port <n>              HTTP and WebSocket port (default ${DEFAULT_PORT}; 0 picks a free one)
  --legacy-port <n|off>   port that tells old frontends to reload (default ${DEFAULT_LEGACY_PORT})
  --allowed-origin <url>  a web origin (e.g. http://localhost:5173) allowed to connect; repeatable; on
                          localhost a port range (e.g. http://localhost:44040-44139)
                          (also KEYFRAME_ALLOWED_ORIGINS=<origin,origin>)
  --dialect <spec|reference>
                          names for connections that do not ask (?dialect=): SPEC's (spec) or the
                          reference frontend's (reference); also KEYFRAME_DIALECT, else the wireDialect setting
  --reference-media-port <n|off>
                          where reference-dialect frontends load media (default ${DEFAULT_REFERENCE_MEDIA_PORT})
  --version               print the version
  --help                  print this help`;

async function main(): Promise<void> {
  if (process.argv[2] === 'tape') return runTapeCommand(process.argv.slice(3));
  if (process.argv[2] === 'plugin') return void (process.exitCode = await runPluginCommand(process.argv.slice(3)));
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      'legacy-port': { type: 'string' },
      'allowed-origin': { type: 'string', multiple: true },
      dialect: { type: 'string' },
      'reference-media-port': { type: 'string' },
      app: { type: 'boolean' },
      minimised: { type: 'boolean' },
      version: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return void console.log(USAGE);
  if (values.version) return void console.log(appVersion());

  const legacy = values['legacy-port'];
  const options = ServiceOptions.fromEnvironment({
    dataFolder: values['data-dir'],
    port: parsePort(values.port, '--port'),
    allowedOrigins: values['allowed-origin'] ?? [],
    dialect: values.dialect,
    referenceMediaPort: values['reference-media-port'],
    ...(legacy === undefined ? {} : { legacyPort: legacy === 'off' ? undefined : parsePort(legacy, '--legacy-port') }),
  });

  if (values.minimised && !values.app) throw new Error('--minimised goes with --app');
  let desktop: DesktopApp | undefined;
  if (values.app) {
    desktop = await loadDesktopApp({ dataFolder: options.dataFolder, openInSystemBrowser: systemBrowser() });
    if (await handOverToRunningKeyframe(options.dataFolder, desktop)) return;
  }

  let service: KeyframeService;
  try {
    service = await KeyframeService.start(options, { desktopWindow: desktop?.window });
  } catch (error) {
    // Two launches at the same moment: the other one took the data folder first.
    if (desktop && error instanceof DataFolderInUseError && (await handOverToRunningKeyframe(options.dataFolder, desktop))) return;
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        desktop
          ? `Port ${options.port} is in use by another program (no Keyframe runs on ${options.dataFolder}): close it, or start with --port <n>.`
          : `Port ${options.port} is already in use: is Keyframe already running? Stop it, or start with --port <n>.`,
      );
    }
    throw error;
  }

  const container = containerOf(service);
  const dialect = container.resolve(DefaultDialect).current;
  const mediaPort = container.resolve(ReferenceMediaListener).port;
  // Before the banner: a frontend or a terminal may stop the service as soon as it sees the address.
  let stopping = false;
  const shutdown = (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping Keyframe…`);
    const desktopStopped = (desktop?.stop() ?? Promise.resolve()).catch((error: unknown) =>
      console.error('The app window did not close cleanly:', error),
    );
    void desktopStopped
      .then(() => service.stop())
      .then(
        () => process.exit(exitCode),
        (error: unknown) => {
          console.error('Keyframe did not stop cleanly:', error);
          process.exit(1);
        },
      );
  };
  handleProcessFaults(container.resolve(Logger).child('process'), shutdown);
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  connectToLauncher(container.resolve(Updater), () => shutdown('Update installed', RESTART_FOR_UPDATE_EXIT_CODE));
  console.log(
    [
      `Keyframe ${appVersion()} is running`,
      `  UI:        ${service.url}`,
      `  WebSocket: ${service.url.replace(/^http/, 'ws')}`,
      ...(dialect === 'spec' ? [] : [`  Dialect:   ${dialect} (connections that do not ask for one; ?dialect=spec for SPEC's names)`]),
      ...(service.legacyPort === undefined ? [] : [`  Legacy:    ws://127.0.0.1:${service.legacyPort}/ (tells old frontends to reload)`]),
      ...(mediaPort === undefined ? [] : [`  Media:     http://127.0.0.1:${mediaPort}/ (media for reference-dialect frontends)`]),
      `  Data:      ${options.dataFolder}`,
      `  Content:   ${service.settings.contentFolder}`,
      `  Logs:      ${options.logFolder}`,
    ].join('\n'),
  );

  await desktop?.start(service, {
    log: container.resolve(Logger).child('app'),
    quit: () => shutdown('Quit'),
    startedMinimised: values.minimised ?? false,
  });

  // Frontends are answered from the banner on; this line says that the integrations and the capture engine are loaded too.
  await service.loaded();
  if (stopping) return;
  console.log(captureEngineSummary(container.resolve(MachineCapabilities)));
  console.log('Loaded. Press Ctrl+C to stop.');
}

/** Which ffmpeg records, and what it cannot do here with the step that fixes it; or why there is none. */
function captureEngineSummary(capabilities: MachineCapabilities): string {
  const engine = capabilities.captureEngine;
  if (engine) return captureEngineLine(engine);
  return noCaptureEngineLine(capabilities.toolbox.failure?.subtitle ?? 'not loaded');
}

main().catch((error: unknown) => {
  console.error(`keyframe: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
