// An encode that cannot keep up, for real: a moving picture of fine noise at 1080p60 is several times
// more than x264 encodes in real time on a test machine (0.24x on a 2-core one), where the flat test
// pattern keeps up. The user is told within seconds (State and a notice), and the next recording starts
// a step lower and keeps the clock: its file is as long as the time recorded.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ProtocolClient } from '@keyframe/integration-testkit';
import { openUi } from '../kit/browser.js';
import { ffmpegPath, ffprobePath } from '../kit/processes.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { longTestsSelected } from '../kit/test-length.js';

const run = promisify(execFile);
const HEIGHTS: Record<string, number> = { '720p': 720, '1080p': 1080 };

/** Two seconds of 60 fps noise, small (the service scales it up): cheap to make and to decode, costly to encode. */
async function noiseClip(file: string): Promise<void> {
  const picture = 'testsrc2=size=480x270:rate=60,noise=alls=60:allf=t';
  await run(
    ffmpegPath(),
    ['-v', 'error', '-f', 'lavfi', '-i', picture, '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '16'].concat([
      '-pix_fmt',
      'yuv420p',
      '-y',
      file,
    ]),
  );
}

async function probeVideo(file: string): Promise<{ seconds: number; height: number }> {
  const { stdout } = await run(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  const probed = JSON.parse(stdout) as { format: { duration: string }; streams: { codec_type: string; height?: number }[] };
  return { seconds: Number(probed.format.duration), height: probed.streams.find((stream) => stream.codec_type === 'video')!.height! };
}

/** Records until `seconds` after the first frame and stops; the recorded span and the saved file. */
async function record(client: ProtocolClient, seconds: number) {
  client.send('StartRecording');
  const running = await client.next('State', (state) => state.recording !== null && state.preRecording === null, 20000);
  const startedAt = Date.parse(running.recording!.startTime);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + seconds * 1000 - Date.now())));
  const stoppedAt = Date.now();
  client.send('StopRecording');
  const saved = await client.next('State', (state) => state.recording === null && state.content.length > 0, 20000);
  return { running, recordedSeconds: (stoppedAt - startedAt) / 1000, file: saved.content[0]!.filePath };
}

// Long-running and machine-dependent (it needs a machine too slow for 1080p60 noise): `npm run test:long` runs it.
(longTestsSelected() ? describe : describe.skip)('encoding overloaded (long)', function () {
  this.timeout(60000);
  const under = serviceUnderTest();

  it('says so within seconds (State and a notice) and starts the next recording a step lower, as long as the time recorded', async () => {
    const clip = path.join(under.data.path, 'noise.mp4');
    await noiseClip(clip);
    let { client } = await under.connect({ KEYFRAME_SYNTHETIC_VIDEO: clip });
    client.send('UpdateSettings', { resolution: '1080p', frameRate: 60, recordingMode: 'Session', contentFolder: under.content.path });
    await client.next('Settings');

    // The first recording: told within seconds, through State, a notice and the Recording page.
    client.send('StartRecording');
    const running = await client.next('State', (state) => state.recording !== null && state.preRecording === null, 20000);
    const startedAt = Date.parse(running.recording!.startTime);
    expect(running.encodingHealth, 'unmeasured at the start').to.deep.include({ overloaded: false, speed: null, steppedDown: null });
    const overloaded = await client.next('State', (state) => state.encodingHealth?.overloaded === true, 12000);
    const toldAfter = (Date.now() - startedAt) / 1000;
    expect(overloaded.encodingHealth).to.deep.include({ reason: 'speed', targetFrameRate: 60, steppedDown: null });
    expect(overloaded.encodingHealth!.speed).to.be.below(0.95);
    const isNotice = (modal: { title: string }) => modal.title === "Recording can't keep up";
    const notice = client.all('ShowModal').find(isNotice) ?? (await client.next('ShowModal', isNotice, 5000));
    expect(notice.type).to.equal('warning');
    expect(notice.description).to.match(/slower than real time .* the next ones start at .* instead of superfast, 60 fps, 1080p/);
    const next = (await client.next('State', (state) => state.encodingHealth?.nextStepDown != null, 5000)).encodingHealth!.nextStepDown!;
    expect(next.frameRate * HEIGHTS[next.resolution]! ** 2, 'the next level is cheaper').to.be.below(60 * 1080 ** 2);
    expect(client.all('ShowModal').filter(isNotice), 'one notice for the recording').to.have.length(1);

    // The Recording page says it where the user looks (the page takes the service's one connection over).
    const ui = await openUi(under.process);
    try {
      await ui.page.getByTestId('nav-recording').click();
      const warning = ui.page.getByTestId('encoding-overloaded');
      await warning.waitFor({ timeout: 5000 });
      expect(await warning.textContent()).to.match(
        /^Encoding overloaded: it encodes at 0\.\d\dx real time\. The next recording starts at /,
      );
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
    client = under.client = await ProtocolClient.connect(under.process.url);
    await client.handshake();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + 9000 - Date.now())));
    const stoppedAt = Date.now();
    client.send('StopRecording');
    const firstFile = (await client.next('State', (state) => state.recording === null && state.content.length > 0, 20000)).content[0]!
      .filePath;
    const first = { recordedSeconds: (stoppedAt - startedAt) / 1000, file: firstFile };

    const second = await record(client, 6);
    expect(second.running.encodingHealth).to.deep.include({ steppedDown: next, targetFrameRate: next.frameRate });
    const saved = await probeVideo(second.file);
    expect(saved.height).to.equal(HEIGHTS[next.resolution]);
    expect(saved.seconds, 'the stepped-down file against the time recorded').to.be.closeTo(second.recordedSeconds, 1);
    expect(client.schemaViolations).to.deep.equal([]);

    const overloadedFile = await probeVideo(first.file);
    console.log(
      `      told after ${toldAfter.toFixed(1)} s; overloaded file ${overloadedFile.seconds.toFixed(1)} s of ${first.recordedSeconds.toFixed(1)} s; ` +
        `next at ${next.preset}, ${next.frameRate} fps, ${next.resolution}: ${saved.seconds.toFixed(1)} s of ${second.recordedSeconds.toFixed(1)} s`,
    );
  });
});
