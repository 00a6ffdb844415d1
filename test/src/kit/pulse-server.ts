// A private PulseAudio server for one suite: its own folders and socket, so it neither sees nor
// disturbs a sound server of the machine. The speakers (a null sink) play one tone and the
// microphone (a real, non-monitor source) hears another, both the defaults, for as long as it runs.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PulseServer {
  /** `PULSE_SERVER` for clients: `unix:<socket>`. */
  readonly address: string;
  /** Ends the tone played into `sink` (unloads its `module-sine`) with `pactl`: `speakers` the game, `voice` the microphone's. */
  silence(sink: 'speakers' | 'voice', pactl: string): Promise<void>;
  /** Ends the server and waits for it. */
  stop(): Promise<void>;
}

export interface PulseTones {
  /** Played into the default sink (`speakers`, shown as `Speakers`) by a sink input, as a game would. */
  speakersHz: number;
  /**
   * What the default source (`microphone`, shown as `Microphone`) hears: a real source (not a monitor)
   * remapped from the monitor of a second sink, `voice`, which plays this tone.
   */
  microphoneHz: number;
}

/**
 * Starts `pulseaudio` in the foreground with only the modules the suite needs (no autospawn, no
 * D-Bus, no exit when idle), as root too (`--system=false`: it warns and runs), in `folder`.
 */
export async function startPulseServer(pulseaudio: string, folder: string, tones: PulseTones): Promise<PulseServer> {
  const runtime = path.join(folder, 'runtime');
  await mkdir(runtime, { recursive: true });
  const socket = path.join(runtime, 'native');
  const script = path.join(folder, 'server.pa');
  await writeFile(
    script,
    [
      `load-module module-native-protocol-unix socket=${socket} auth-anonymous=1`,
      'load-module module-null-sink sink_name=speakers sink_properties=device.description=Speakers',
      `load-module module-sine sink=speakers frequency=${tones.speakersHz}`,
      // module-sine-source would be simpler, but it delivers its tone in 2 s blocks, which no microphone does.
      'load-module module-null-sink sink_name=voice sink_properties=device.description=Voice',
      `load-module module-sine sink=voice frequency=${tones.microphoneHz}`,
      'load-module module-remap-source source_name=microphone master=voice.monitor source_properties=device.description=Microphone',
      'set-default-sink speakers',
      'set-default-source microphone',
      '',
    ].join('\n'),
  );
  const server = spawn(
    pulseaudio,
    [
      '--daemonize=no',
      '-n',
      '--system=false',
      '--exit-idle-time=-1',
      '--disallow-exit',
      '--use-pid-file=false',
      '--log-target=stderr',
      '-F',
      script,
    ],
    {
      env: {
        ...process.env,
        HOME: folder,
        XDG_RUNTIME_DIR: runtime,
        PULSE_RUNTIME_PATH: runtime,
        PULSE_STATE_PATH: path.join(folder, 'state'),
        DBUS_SESSION_BUS_ADDRESS: 'disabled:',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-4000)));
  const deadline = Date.now() + 10_000;
  while (!existsSync(socket)) {
    if (server.exitCode !== null || Date.now() > deadline) {
      await ended(server);
      throw new Error(`pulseaudio did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const address = `unix:${socket}`;
  return {
    address,
    async silence(sink, pactl) {
      const options = { env: { ...process.env, PULSE_SERVER: address } };
      const { stdout } = await run(pactl, ['list', 'short', 'modules'], options);
      const tone = stdout.split('\n').find((line) => line.includes(`\tmodule-sine\tsink=${sink} `));
      if (!tone) throw new Error(`no tone plays into ${sink}:\n${stdout}`);
      await run(pactl, ['unload-module', tone.split('\t')[0]!], options);
    },
    stop: () => ended(server),
  };
}

/** SIGTERM, then SIGKILL after 3 s; resolves when the process is gone. */
function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
