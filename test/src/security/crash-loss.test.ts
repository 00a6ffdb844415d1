// What a crash costs a recording: the real service, recording with its default settings (synthetic
// capture, 1080p60, Hybrid), is killed with SIGKILL; after a restart the recovered file must hold all
// but the last 2 s of the wall-clock time recorded up to the kill, and the recording's ffmpeg must not
// outlive the service (it would go on writing into the file the next run recovers).
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { processesMentioning, ffprobePath } from '../kit/processes.js';
import { serviceUnderTest } from '../kit/service-under-test.js';

/** Seconds of each stream (video first): a file that ends early in one stream must not pass on the other's length. */
const probeStreams = (file: string) =>
  new Promise<number[]>((resolve, reject) => {
    execFile(ffprobePath(), ['-v', 'error', '-show_entries', 'stream=duration', '-of', 'csv=p=0', file], (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(stdout.trim().split('\n').map(Number.parseFloat)),
    );
  });

const sleepUntil = (time: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));

/** Polls `check` until it holds or `timeoutMs` passes; its last answer. */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Wall-clock seconds recorded before the kill; what the recovered file may lack at most. */
const RECORD_SECONDS = 4;
const ALLOWED_LOSS_SECONDS = 2;

describe('a recording when the service is killed (kill -9)', function () {
  this.timeout(90000);
  const under = serviceUnderTest();

  it('keeps all but the last 2 s of the wall-clock time recorded up to the kill, and its ffmpeg ends with the service', async () => {
    let frontend = await under.start();
    await frontend.handshake();
    // Only where the library lives: resolution, frame rate, encoder and mode stay the defaults.
    frontend.send('UpdateSettings', { contentFolder: under.content.path });
    await frontend.next('Settings');
    frontend.send('StartRecording');
    const running = await frontend.next('State', (state) => state.recording !== null && state.preRecording === null, 20000);
    const startedAt = Date.parse(running.recording!.startTime);
    const recordings = path.join(under.data.path, 'cache', 'recordings');
    const encoder = await processesMentioning(recordings);
    expect(encoder, 'the recording ffmpeg while recording').to.have.lengthOf(1);

    await sleepUntil(startedAt + RECORD_SECONDS * 1000);
    const recordedSeconds = (Date.now() - startedAt) / 1000;
    await under.process.kill();
    const ended = await eventually(async () => (await processesMentioning(recordings)).length === 0, 5000);
    expect(ended, `the recording ffmpeg 5 s after the service was killed: ${(await processesMentioning(recordings)).join('; ')}`).to.equal(
      true,
    );

    frontend = await under.start();
    await frontend.handshake();
    const prompt = await frontend.next('RecoveryPrompt');
    expect(prompt.files.map((file) => file.type)).to.deep.equal(['Session']);
    frontend.send('RecoveryConfirm', { recoveryId: prompt.files[0]!.recoveryId, action: 'recover', gameOverride: 'Crash Test' });
    const recovered = await frontend
      .next('State', (state) => state.content.some((item) => item.game === 'Crash Test'), 30000)
      .catch((error: Error) => {
        throw new Error(
          `${error.message}: ${JSON.stringify(frontend.events.filter((event) => event.method === 'CommandRejected' || event.method === 'ShowModal'))}`,
        );
      });
    const item = recovered.content.find((listed) => listed.game === 'Crash Test')!;
    const streams = await probeStreams(item.filePath);
    expect(streams, 'video and sound').to.have.lengthOf(2);
    const probed = Math.min(...streams);
    console.log(
      `      recorded ${recordedSeconds.toFixed(2)} s wall clock before kill -9; recovered ${streams.map((seconds) => seconds.toFixed(2)).join(' s video, ')} s sound; lost ${(recordedSeconds - probed).toFixed(2)} s`,
    );
    expect(probed, `recovered seconds of ${recordedSeconds.toFixed(2)} s recorded`).to.be.at.least(recordedSeconds - ALLOWED_LOSS_SECONDS);
  });
});
