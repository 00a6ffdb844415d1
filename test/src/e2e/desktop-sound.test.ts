// Desktop sound for real: the service records an Xvfb screen with x11grab plus what a private
// PulseAudio server's speakers play and its microphone hears (KEYFRAME_CAPTURE unset, default
// settings), and the file's tracks carry the tones played into each, told apart by frequency, in
// time with the picture: the screen turning white and both tones stopping at once land together.
// Skipped where Xvfb, pulseaudio/pactl or an ffmpeg with PulseAudio (which the service then runs) is missing.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile, spawnSync, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import type { State } from '@keyframe/core/protocol';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';
import { ffmpegPath, niceOf, processesMentioning } from '../kit/processes.js';
import { startPulseServer, type PulseServer } from '../kit/pulse-server.js';
import { recordScreen } from '../kit/screen-recording.js';
import { averageColour, onPath, startXvfb } from '../kit/virtual-desktop.js';

const run = promisify(execFile);

const GAME_HZ = 1000;
const VOICE_HZ = 600;
/** Where no tone is played: the floor a tone must stand out from. */
const QUIET_HZ = [350, 800, 1500];
const SAMPLE_RATE = 48_000;

/** Why the suite cannot run here, or undefined. */
function missingTool(): string | undefined {
  if (process.platform !== 'linux') return 'PulseAudio capture is tested on Linux';
  if (!onPath('Xvfb')) return 'Xvfb is not installed; apt-get install xvfb';
  if (!onPath('pulseaudio') || !onPath('pactl')) return 'pulseaudio is not installed; apt-get install pulseaudio pulseaudio-utils';
  const ffmpeg = onPath('ffmpeg');
  const devices = ffmpeg ? spawnSync(ffmpeg, ['-hide_banner', '-devices'], { encoding: 'utf8', timeout: 10_000 }).stdout : '';
  if (!/^\s*D\S*\s+pulse\s/m.test(devices)) return 'no ffmpeg with PulseAudio input on PATH; apt-get install ffmpeg';
  return undefined;
}

/** Amplitude of the `frequency` component of `samples` (Goertzel): a full-scale sine gives 1. */
function amplitudeAt(samples: Float32Array, frequency: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / SAMPLE_RATE);
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of samples) {
    const current = sample + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  return (2 * Math.sqrt(Math.max(0, power))) / samples.length;
}

/** `seconds` of audio track `track` from `start`, mono, as float samples. */
async function decodeTrack(file: string, track: number, start: number, seconds: number): Promise<Float32Array> {
  const pcm = await new Promise<Buffer>((resolve, reject) => {
    execFile(
      ffmpegPath(),
      [
        '-v',
        'error',
        '-ss',
        String(start),
        '-t',
        String(seconds),
        '-i',
        file,
        '-map',
        `0:a:${track}`,
        '-ac',
        '1',
        '-ar',
        String(SAMPLE_RATE),
        '-f',
        'f32le',
        '-',
      ],
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
  return new Float32Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 4));
}

const decibels = (ratio: number) => 20 * Math.log10(ratio);

/** Seconds into the file where the picture first turns white (its brightness at 100 frames a second). */
async function whiteFrom(file: string): Promise<number> {
  const brightness = await new Promise<Buffer>((resolve, reject) => {
    execFile(
      ffmpegPath(),
      ['-v', 'error', '-i', file, '-map', '0:v', '-vf', 'fps=100,scale=1:1,format=gray', '-f', 'rawvideo', '-'],
      { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
  return brightness.findIndex((value) => value > 200) / 100;
}

/** Seconds into `samples` where the `frequency` tone was last heard (10 ms windows, a tenth of its loudest). */
function toneUntil(samples: Float32Array, frequency: number): number {
  const window = SAMPLE_RATE / 100;
  const levels = Array.from({ length: Math.floor(samples.length / window) }, (_, index) =>
    amplitudeAt(samples.subarray(index * window, (index + 1) * window), frequency),
  );
  const loudest = Math.max(...levels);
  return (levels.findLastIndex((level) => level > loudest / 10) + 1) / 100;
}

const skipReason = missingTool();
const title = skipReason ? `desktop sound (skipped: ${skipReason})` : 'desktop sound (Xvfb + a private PulseAudio server)';

describe(title, function () {
  this.timeout(45000);
  let screen: { display: string; process: ChildProcess } | undefined;
  let pulse: PulseServer | undefined;
  let folder: TempFolder;
  let data: TempFolder;
  let content: TempFolder;
  let service: ServiceProcess | undefined;
  let client: ProtocolClient | undefined;

  before(async function () {
    if (skipReason) this.skip();
    folder = await createTempFolder('keyframe-pulse-');
    data = await createTempFolder();
    content = await createTempFolder('keyframe-content-');
    screen = await startXvfb(onPath('Xvfb')!);
    pulse = await startPulseServer(onPath('pulseaudio')!, folder.path, { speakersHz: GAME_HZ, microphoneHz: VOICE_HZ });
  });
  after(async () => {
    await client?.close();
    await service?.stop();
    await pulse?.stop();
    screen?.process.kill();
    await Promise.all([folder, data, content].map((temp) => temp?.remove()));
  });

  it('records the screen, the speakers and the microphone by default: the mix and one track each, each with its own tone, in time with the picture', async () => {
    await run(onPath('xsetroot')!, ['-solid', '#cc6633'], { env: { ...process.env, DISPLAY: screen!.display } });

    service = await ServiceProcess.start({
      dataFolder: data.path,
      legacyPort: 'off',
      env: { DISPLAY: screen!.display, PULSE_SERVER: pulse!.address, KEYFRAME_CAPTURE: undefined },
    });
    client = await ProtocolClient.connect(service.url);
    const { state } = await client.handshake();
    const devicesFound = (next: State) => next.outputDevices.length > 0 && next.inputDevices.length > 0;
    const ready = devicesFound(state) ? state : await client.next('State', devicesFound, 15000);
    expect(ready.outputDevices[0]).to.deep.equal({ id: 'speakers', name: 'Speakers', isDefault: true });
    expect(ready.inputDevices).to.deep.equal([{ id: 'microphone', name: 'Microphone', isDefault: true }]);
    expect(ready.captureEngine?.missing ?? [], 'the service runs an ffmpeg with PulseAudio').to.not.include('no PulseAudio input');

    // Default settings: no device chosen, separate tracks off.
    const { running, file, probed } = await recordScreen(client, content.path, 3, async (started) => {
      // The game comes first: the recording's ffmpeg (the one writing into this suite's data folder) runs below normal priority.
      const encoders = (await processesMentioning(data.path)).filter((line) => /^\d+: \S*ffmpeg /.test(line));
      expect(encoders, 'the recording ffmpeg').to.have.length(1);
      expect(await niceOf(Number(encoders[0]!.split(':')[0])), 'its nice value').to.be.at.least(10);
      // 2 s in, at once: the screen turns white, the game and the voice fall silent. The file must show all three at the same moment.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(started.startTime) + 2000 - Date.now())));
      await Promise.all([
        run(onPath('xsetroot')!, ['-solid', '#ffffff'], { env: { ...process.env, DISPLAY: screen!.display } }),
        pulse!.silence('speakers', onPath('pactl')!),
        pulse!.silence('voice', onPath('pactl')!),
      ]);
    });
    expect(running.recording!.audioTrackNames).to.deep.equal(['Full Mix', 'Speakers', 'Microphone']);
    const audio = probed.streams.filter((stream) => stream.codec_type === 'audio');
    expect(audio.map((stream) => stream.tags?.handler_name)).to.deep.equal(['Full Mix', 'Speakers', 'Microphone']);

    const [red, green, blue] = await averageColour(ffmpegPath(), file, 1);
    expect(red, `red of ${red.toFixed(0)},${green.toFixed(0)},${blue.toFixed(0)}`).to.be.closeTo(0xcc, 16);
    expect(green).to.be.closeTo(0x66, 16);
    expect(blue).to.be.closeTo(0x33, 16);
    const seconds = Number(probed.format.duration);
    // 3 s recorded (from the recording's start time to the stop). With the screen opened first, the devices' slow opening made
    // it 5.3–6.3 s; with the sound stamped apart from the picture, a track could start before it and lengthen the file.
    expect(seconds, 'duration').to.be.closeTo(3, 0.5);

    // Per track: each tone's amplitude over the loudest quiet frequency, in dB, from 0.3 s to 1.8 s (before the game falls silent).
    const measured = await Promise.all(
      audio.map(async (_, track) => {
        const samples = await decodeTrack(file, track, 0.3, 1.5);
        const floor = Math.max(...QUIET_HZ.map((frequency) => amplitudeAt(samples, frequency)), 1e-6);
        return { game: decibels(amplitudeAt(samples, GAME_HZ) / floor), voice: decibels(amplitudeAt(samples, VOICE_HZ) / floor) };
      }),
    );
    const [mix, speakers, microphone] = measured as [(typeof measured)[0], (typeof measured)[0], (typeof measured)[0]];
    const pictureChange = await whiteFrom(file);
    const silence = toneUntil(await decodeTrack(file, 1, 0, seconds), GAME_HZ);
    const voiceSilence = toneUntil(await decodeTrack(file, 2, 0, seconds), VOICE_HZ);
    console.log(
      `      the picture turns white at ${pictureChange.toFixed(2)} s, the game falls silent at ${silence.toFixed(2)} s, ` +
        `the voice at ${voiceSilence.toFixed(2)} s; ` +
        `recorded ${seconds.toFixed(2)} s; tone over the floor (dB), ${GAME_HZ} Hz / ${VOICE_HZ} Hz: mix ${mix.game.toFixed(0)} / ${mix.voice.toFixed(0)}, ` +
        `speakers ${speakers.game.toFixed(0)} / ${speakers.voice.toFixed(0)}, microphone ${microphone.game.toFixed(0)} / ${microphone.voice.toFixed(0)}`,
    );
    // Heard: well over the quiet frequencies. Absent: far below the track's own tone (against the floor alone, two
    // near-silent bins differ by up to ±20 dB from run to run).
    const HEARD_DB = 30;
    const SEPARATION_DB = 40;
    expect(speakers.game, 'speakers track: the game tone').to.be.above(HEARD_DB);
    expect(speakers.game - speakers.voice, 'speakers track: no voice').to.be.above(SEPARATION_DB);
    expect(microphone.voice, 'microphone track: the voice').to.be.above(HEARD_DB);
    expect(microphone.voice - microphone.game, 'microphone track: no game').to.be.above(SEPARATION_DB);
    expect(mix.game, 'mix: the game tone').to.be.above(HEARD_DB);
    expect(mix.voice, 'mix: the voice').to.be.above(HEARD_DB);
    expect(pictureChange, 'the picture turns white').to.be.above(0);
    expect(silence - pictureChange, 'the game sound against the picture (s)').to.be.within(-0.3, 0.3);
    expect(voiceSilence - pictureChange, 'the microphone against the picture (s)').to.be.within(-0.3, 0.3);
    expect(client.schemaViolations).to.deep.equal([]);
  });
});
