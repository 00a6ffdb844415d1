// Screen capture for real: the service records an Xvfb display with x11grab (KEYFRAME_CAPTURE
// unset), and the file shows what was on that screen. Skipped where Xvfb is not installed.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import type { State } from '@keyframe/core/protocol';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

const run = promisify(execFile);

function onPath(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** ffmpeg/ffprobe as the service finds them: the environment variable, else the packages @keyframe/core depends on. */
function tool(name: 'ffmpeg' | 'ffprobe'): string {
  const variable = process.env[name === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH'];
  if (variable) return variable;
  const fromCore = createRequire(createRequire(import.meta.url).resolve('@keyframe/core/package.json'));
  return (fromCore(`@${name}-installer/${name}`) as { path: string }).path;
}

/** Starts `Xvfb :N` on a free number from 90–99 and waits for its socket. */
async function startXvfb(xvfb: string): Promise<{ display: string; process: ChildProcess }> {
  const free = Array.from({ length: 10 }, (_, index) => 90 + index)
    .filter((number) => !existsSync(`/tmp/.X${number}-lock`) && !existsSync(`/tmp/.X11-unix/X${number}`))
    .sort(() => Math.random() - 0.5);
  for (const number of free) {
    // -noreset: without it the server resets (root colour and all) when its last client, xsetroot, leaves.
    const child = spawn(xvfb, [`:${number}`, '-screen', '0', '1280x720x24', '-nolisten', 'tcp', '-noreset'], { stdio: 'ignore' });
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && child.exitCode === null) {
      if (existsSync(`/tmp/.X11-unix/X${number}`)) return { display: `:${number}`, process: child };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill();
  }
  throw new Error('no Xvfb display could be started on :90–:99');
}

/** Average R, G, B of the frame at `seconds`, from a 16x9 thumbnail. */
async function averageColour(ffmpeg: string, file: string, seconds: number): Promise<[number, number, number]> {
  const { stdout } = await new Promise<{ stdout: Buffer }>((resolve, reject) => {
    execFile(
      ffmpeg,
      [
        '-v',
        'error',
        '-ss',
        String(seconds),
        '-i',
        file,
        '-frames:v',
        '1',
        '-vf',
        'scale=16:9',
        '-pix_fmt',
        'rgb24',
        '-f',
        'rawvideo',
        '-',
      ],
      { encoding: 'buffer' },
      (error, out) => (error ? reject(error) : resolve({ stdout: out })),
    );
  });
  const sums = [0, 0, 0];
  for (let index = 0; index < stdout.length; index++) sums[index % 3]! += stdout[index]!;
  const pixels = stdout.length / 3;
  return [sums[0]! / pixels, sums[1]! / pixels, sums[2]! / pixels];
}

const xvfb = process.platform === 'linux' ? onPath('Xvfb') : undefined;
const title = xvfb ? 'x11 screen capture (Xvfb)' : 'x11 screen capture (skipped: Xvfb is not installed; apt-get install xvfb)';

describe(title, function () {
  this.timeout(60000);
  let screen: { display: string; process: ChildProcess } | undefined;
  let data: TempFolder;
  let content: TempFolder;
  let service: ServiceProcess | undefined;
  let client: ProtocolClient | undefined;

  before(async function () {
    if (!xvfb) this.skip();
    screen = await startXvfb(xvfb);
    data = await createTempFolder();
    content = await createTempFolder('keyframe-content-');
  });
  after(async () => {
    await client?.close();
    await service?.stop();
    screen?.process.kill();
    await data?.remove();
    await content?.remove();
  });

  it('detects the Xvfb screen and records it: a 1280x720 H.264 file of what the screen shows', async () => {
    // A solid root window in a colour no test pattern has: what the file shows must come from the screen.
    const xsetroot = onPath('xsetroot');
    if (xsetroot) await run(xsetroot, ['-solid', '#3366cc'], { env: { ...process.env, DISPLAY: screen!.display } });

    service = await ServiceProcess.start({
      dataFolder: data.path,
      legacyPort: 'off',
      env: { DISPLAY: screen!.display, KEYFRAME_CAPTURE: undefined },
    });
    client = await ProtocolClient.connect(service.url);
    const { state } = await client.handshake();
    expect(state.hasLoadedCaptureEngine).to.equal(true);
    expect(state.displays).to.deep.equal([{ deviceName: 'screen', deviceId: 'screen', isPrimary: true, isHdr: false }]);
    expect(state.maxDisplayHeight).to.equal(720);
    // What the next recording records with, and why not with the GPU: this machine has none.
    expect(state.captureInUse).to.deep.include({
      of: 'next',
      method: 'x11grab',
      encoder: 'libx264',
      hardwareEncode: false,
      hardwareGrab: false,
    });
    expect(state.captureInUse!.reasons[0]).to.equal(`screen: x11grab on ${screen!.display}`);
    expect(state.captureInUse!.notUsed, 'the hardware encoder asked for, and why not').to.have.length(1);
    expect(state.captureInUse!.notUsed[0]).to.deep.include({ used: 'libx264' });
    expect(state.captureInUse!.notUsed[0]!.reason).to.match(/render node|test encode/);

    client.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: content.path });
    await client.next('Settings');
    client.send('StartRecording');
    const running = await client.next('State', (next) => next.recording !== null && next.preRecording === null, 20000);
    expect(running.captureInUse).to.deep.include({ of: 'current', method: 'x11grab', encoder: 'libx264' });
    expect(
      running.captureInUse!.reasons.filter((reason) => reason.startsWith('threads: ')),
      'why x264 takes the threads it does',
    ).to.have.length(1);
    const startedAt = Date.parse(running.recording!.startTime);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + 3000 - Date.now())));
    client.send('StopRecording');
    // By game: a game detected on this machine (another suite's stand-in) may add its own item.
    const manual = (next: State) => next.content.find((item) => item.game === 'Manual Recording');
    const saved = await client.next('State', (next) => next.recording === null && manual(next) !== undefined, 20000);
    const file = manual(saved)!.filePath;
    expect(saved.captureInUse).to.deep.include({ of: 'last', method: 'x11grab', encoder: 'libx264' });

    const { stdout } = await run(tool('ffprobe'), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
    const probed = JSON.parse(stdout) as {
      format: { duration: string };
      streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
    };
    const video = probed.streams.find((stream) => stream.codec_type === 'video')!;
    expect(video).to.deep.include({ codec_name: 'h264', width: 1280, height: 720 });
    const seconds = Number(probed.format.duration);
    expect(seconds, 'duration').to.be.closeTo(3, 0.5);
    expect(
      probed.streams.some((stream) => stream.codec_type === 'audio'),
      'an audio track (silent without PulseAudio)',
    ).to.equal(true);

    const [red, green, blue] = await averageColour(tool('ffmpeg'), file, 1);
    if (xsetroot) {
      expect(red, `red of ${red.toFixed(0)},${green.toFixed(0)},${blue.toFixed(0)}`).to.be.closeTo(0x33, 16);
      expect(green).to.be.closeTo(0x66, 16);
      expect(blue).to.be.closeTo(0xcc, 16);
    } else {
      expect(Math.max(red, green, blue), 'an empty Xvfb screen is black').to.be.below(16);
    }
    expect(client.schemaViolations).to.deep.equal([]);
    console.log(
      `      ${screen!.display}: recorded ${seconds.toFixed(3)} s, ${video.width}x${video.height} ${video.codec_name}; ` +
        `average colour ${[red, green, blue].map((value) => value.toFixed(0)).join(',')}${xsetroot ? ' (root set to 51,102,204)' : ''}`,
    );
  });
});
