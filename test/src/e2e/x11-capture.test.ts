// Screen capture for real: the service records an Xvfb display with x11grab (KEYFRAME_CAPTURE
// unset), and the file shows what was on that screen. Skipped where Xvfb is not installed.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';
import { ffmpegPath } from '../kit/processes.js';
import { recordScreen } from '../kit/screen-recording.js';
import { averageColour, onPath, startXvfb } from '../kit/virtual-desktop.js';

const run = promisify(execFile);

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

    const { running, saved, file, probed } = await recordScreen(client, content.path, 3);
    expect(running.captureInUse).to.deep.include({ of: 'current', method: 'x11grab', encoder: 'libx264' });
    expect(
      running.captureInUse!.reasons.filter((reason) => reason.startsWith('threads: ')),
      'why x264 takes the threads it does',
    ).to.have.length(1);
    expect(saved.captureInUse).to.deep.include({ of: 'last', method: 'x11grab', encoder: 'libx264' });
    const video = probed.streams.find((stream) => stream.codec_type === 'video')!;
    expect(video).to.deep.include({ codec_name: 'h264', width: 1280, height: 720 });
    const seconds = Number(probed.format.duration);
    expect(seconds, 'duration').to.be.closeTo(3, 0.5);
    expect(
      probed.streams.some((stream) => stream.codec_type === 'audio'),
      'an audio track (silent without PulseAudio)',
    ).to.equal(true);

    const [red, green, blue] = await averageColour(ffmpegPath(), file, 1);
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
