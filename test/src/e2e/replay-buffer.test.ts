// The replay buffer and the live preview with the real service and real ffmpeg (synthetic capture):
// one encode feeds the session file, the buffer segments and the preview frames; saves take the
// last seconds while the session goes on; Buffer mode keeps nothing but what was saved.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseDuration, type ContentItem, type State } from '@keyframe/core/protocol';
import { ProtocolClient } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';

function ffprobePath(): string {
  if (process.env.FFPROBE_PATH) return process.env.FFPROBE_PATH;
  const fromCore = createRequire(createRequire(import.meta.url).resolve('@keyframe/core/package.json'));
  return (fromCore('@ffprobe-installer/ffprobe') as { path: string }).path;
}

interface Probe {
  format: { duration?: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; duration?: string }[];
}
const probe = (file: string) =>
  new Promise<Probe>((resolve, reject) => {
    execFile(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout) as Probe),
    );
  });

/** The save announcements the frontend received, in order. */
const saveAnnouncements = (client: ProtocolClient) =>
  client.events.map((event) => event.method).filter((method) => method === 'ReplayBufferSaveStarted' || method === 'ReplayBufferSaved');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sleepUntil = (time: number) => sleep(Math.max(0, time - Date.now()));

/** ffmpeg processes whose parent is `parent`, with their CPU time so far (Linux /proc; elsewhere none). */
async function ffmpegChildren(parent: number): Promise<{ pid: number; cpuTicks: number }[]> {
  if (process.platform !== 'linux') return [];
  const found: { pid: number; cpuTicks: number }[] = [];
  for (const name of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const close = stat.lastIndexOf(')');
    if (close < 0) continue;
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' '); // fields[0] is field 3 (state)
    if (command === 'ffmpeg' && Number(fields[1]) === parent)
      found.push({ pid: Number(name), cpuTicks: Number(fields[11]) + Number(fields[12]) });
  }
  return found;
}

/** Width and height from a JPEG's frame header. */
function jpegSize(jpeg: Buffer): { width: number; height: number } | undefined {
  let index = 2;
  while (index + 9 < jpeg.length && jpeg[index] === 0xff) {
    const marker = jpeg[index + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: jpeg.readUInt16BE(index + 5), width: jpeg.readUInt16BE(index + 7) };
    index += 2 + jpeg.readUInt16BE(index + 2);
  }
  return undefined;
}

interface Peaks {
  version: number;
  channels: number;
  sample_rate: number;
  samples_per_pixel: number;
  bits: number;
  length: number;
  data: number[];
}

/** The thumbnail and waveform files of an item, checked for their format. */
async function expectArtwork(cacheFolder: string, item: ContentItem, typeFolder: string): Promise<Peaks> {
  const thumbnail = await readFile(path.join(cacheFolder, 'thumbnails', typeFolder, `${item.id}.jpeg`));
  expect(jpegSize(thumbnail)?.width, `thumbnail of ${item.fileName}`).to.equal(720);
  const peaks = JSON.parse(await readFile(path.join(cacheFolder, 'waveforms', typeFolder, `${item.id}.peaks.json`), 'utf8')) as Peaks;
  expect(peaks).to.deep.include({ version: 2, channels: 1, sample_rate: 11025, bits: 8 });
  expect(peaks.length).to.equal(peaks.data.length);
  // Per second of sound (the synthetic source's audio may end a little before its picture).
  const audio = (await probe(item.filePath)).streams.find((stream) => stream.codec_type === 'audio')!;
  expect(peaks.length / 2 / Number(audio.duration), 'min/max pairs per second').to.be.within(48, 52);
  // The synthetic tone: 1/8 of full scale, about 11 in 8 bits after the stereo-to-mono mix.
  expect(Math.max(...peaks.data)).to.be.within(8, 17);
  return peaks;
}

describe('replay buffer and preview', function () {
  this.timeout(60000);
  const under = serviceUnderTest();

  const startService = async (recordingMode: 'Session' | 'Buffer' | 'Hybrid') => {
    const client = await under.start();
    await client.handshake();
    client.send('UpdateSettings', {
      resolution: '720p',
      frameRate: 30,
      replayBufferDuration: 4,
      recordingMode,
      contentFolder: under.content.path,
    });
    await client.next('Settings');
    return client;
  };
  const startRecording = async (frontend: ProtocolClient) => {
    frontend.send('StartRecording');
    const running = await frontend.next('State', (state) => state.recording !== null && state.preRecording === null, 15000);
    return { running, startedAt: Date.parse(running.recording!.startTime) };
  };
  const buffers = (state: State) => state.content.filter((item) => item.type === 'Buffer');
  const refusal = async (frontend: ProtocolClient, method: 'SaveReplayBuffer' | 'TogglePreview') => {
    frontend.send(method);
    return frontend.next('CommandRejected', (rejection) => rejection.method === method);
  };

  it('Hybrid: one ffmpeg feeds session, buffer and preview; saves take the last 4 s while the session goes on', async () => {
    const frontend = await startService('Hybrid');
    const cacheFolder = path.join(under.data.path, 'cache');
    expect(await refusal(frontend, 'SaveReplayBuffer')).to.deep.include({ code: 'NotAllowed' });
    expect(await refusal(frontend, 'TogglePreview')).to.deep.include({ code: 'NotAllowed' });

    const { running, startedAt } = await startRecording(frontend);
    // Sent at the start, possibly ahead of the coalesced State that shows the recording.
    expect(await frontend.until('RecordingPreviewState', () => true)).to.deep.equal({ enabled: false });
    expect(running.recording!.filePath).to.match(/\/Full Sessions\/Manual Recording\/[^/]+\.mp4$/);
    const encoders = await ffmpegChildren(under.process.child.pid!);
    if (process.platform === 'linux') expect(encoders, 'ffmpeg processes of the service').to.have.length(1);
    const segmentFolders = await readdir(path.join(cacheFolder, 'replay-buffer'));
    expect(segmentFolders).to.have.length(1);

    // The preview: on, frames at about 10 per second, off.
    frontend.send('TogglePreview');
    expect(await frontend.next('RecordingPreviewState')).to.deep.equal({ enabled: true });
    const previewFrom = Date.now();
    const firstFrame = await frontend.next('RecordingPreviewFrame', () => true, 3000);
    const cpuBefore = await ffmpegChildren(under.process.child.pid!);
    await sleep(2500);
    const cpuAfter = await ffmpegChildren(under.process.child.pid!);
    frontend.send('TogglePreview');
    expect(await frontend.next('RecordingPreviewState')).to.deep.equal({ enabled: false });
    const previewSeconds = (Date.now() - previewFrom) / 1000;
    const frames = frontend.events
      .filter((event) => event.method === 'RecordingPreviewFrame')
      .map((event) => event.content as typeof firstFrame);
    const framesPerSecond = frames.length / previewSeconds;
    expect(framesPerSecond, `${frames.length} frames in ${previewSeconds.toFixed(2)} s`).to.be.within(5, 12);
    for (const frame of frames) {
      expect(frame.jpegBase64.startsWith('/9j/')).to.equal(true);
      expect(frame).to.deep.include({ width: 480, height: 270 });
      expect(jpegSize(Buffer.from(frame.jpegBase64, 'base64'))).to.deep.equal({ width: 480, height: 270 });
    }
    await sleep(300);
    const framesAfterOff = frontend.events.filter((event) => event.method === 'RecordingPreviewFrame').length;

    // A save after ~8 s of recording: the last 4 s, while the session keeps recording.
    await sleepUntil(startedAt + 8000);
    const requested = Date.now();
    frontend.send('SaveReplayBuffer');
    await frontend.next('ReplayBufferSaved', () => true, 15000);
    const saveMs = Date.now() - requested;
    const afterSave = await frontend.until('State', (state) => buffers(state).length === 1);
    const replay = buffers(afterSave)[0]!;
    expect(afterSave.recording).to.not.equal(null);
    expect(afterSave.recording!.endTime).to.equal(null);
    expect(path.posix.dirname(replay.filePath)).to.equal(
      path.join(under.content.path, 'Replay Buffers', 'Manual Recording').replaceAll('\\', '/'),
    );
    expect(path.posix.basename(replay.filePath)).to.match(/^\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4$/);
    const probed = await probe(replay.filePath);
    const replaySeconds = Number(probed.format.duration);
    expect(replaySeconds, 'probed duration of the replay').to.be.within(3, 5);
    expect(parseDuration(replay.duration)).to.be.closeTo(replaySeconds, 0.01);
    expect(probed.streams.map((stream) => `${stream.codec_type}:${stream.codec_name}`)).to.deep.equal(['video:h264', 'audio:aac']);
    expect(probed.streams[0]).to.deep.include({ width: 1280, height: 720 });
    await expectArtwork(cacheFolder, replay, 'Replay Buffers');
    const stillOne = await ffmpegChildren(under.process.child.pid!);
    if (process.platform === 'linux') expect(stillOne.map((child) => child.pid)).to.deep.equal(encoders.map((child) => child.pid));

    // Two saves in quick succession: two items, two files.
    frontend.send('SaveReplayBuffer');
    frontend.send('SaveReplayBuffer');
    await frontend.next('ReplayBufferSaved', () => true, 15000);
    await frontend.next('ReplayBufferSaved', () => true, 15000);
    const afterTwo = await frontend.until('State', (state) => buffers(state).length === 3);
    // Each accepted save is announced before it is written (the reference frontend animates the card on it).
    expect(saveAnnouncements(frontend)).to.deep.equal([
      'ReplayBufferSaveStarted',
      'ReplayBufferSaved',
      'ReplayBufferSaveStarted',
      'ReplayBufferSaveStarted',
      'ReplayBufferSaved',
      'ReplayBufferSaved',
    ]);
    expect(new Set(buffers(afterTwo).map((item) => item.filePath)).size).to.equal(3);
    for (const item of buffers(afterTwo)) expect(existsSync(item.filePath)).to.equal(true);

    frontend.send('StopRecording');
    expect(await frontend.next('RecordingPreviewState', () => true, 5000)).to.deep.equal({ enabled: false });
    const stopped = await frontend.until(
      'State',
      (state) => state.recording === null && state.content.some((item) => item.type === 'Session'),
      20000,
    );
    const session = stopped.content.find((item) => item.type === 'Session')!;
    const sessionSeconds = parseDuration(session.duration)!;
    expect(sessionSeconds).to.be.greaterThan(9);
    await expectArtwork(cacheFolder, session, 'Full Sessions');
    // (Only this recording's folder: a game process of a test running beside this one may start another.)
    expect(existsSync(path.join(cacheFolder, 'replay-buffer', segmentFolders[0]!)), 'segments removed at stop').to.equal(false);
    expect(frontend.schemaViolations).to.deep.equal([]);

    const ticksPerSecond = 100;
    const cpu =
      cpuBefore.length === 1 && cpuAfter.length === 1
        ? ((cpuAfter[0]!.cpuTicks - cpuBefore[0]!.cpuTicks) / ticksPerSecond / 2.5) * 100
        : undefined;
    console.log(
      `      preview ${frames.length} frames in ${previewSeconds.toFixed(2)} s = ${framesPerSecond.toFixed(1)}/s (${framesAfterOff - frames.length} after off); ` +
        `save of a 4 s buffer took ${saveMs} ms -> ${replaySeconds.toFixed(3)} s; session ${sessionSeconds.toFixed(2)} s` +
        `${cpu === undefined ? '' : `; ffmpeg CPU ${cpu.toFixed(0)}% of one core (720p30 x264 + 480x270 MJPEG)`}`,
    );
  });

  it('Buffer mode: no session file, and a stop keeps only what was saved; Session mode has no buffer to save', async () => {
    const frontend = await startService('Buffer');
    const cacheFolder = path.join(under.data.path, 'cache');
    const { running, startedAt } = await startRecording(frontend);
    expect(running.recording!.filePath).to.equal(null);
    const [segmentFolder] = await readdir(path.join(cacheFolder, 'replay-buffer'));
    await sleepUntil(startedAt + 1000);
    // Less than 4 s buffered: the save keeps what there is.
    frontend.send('SaveReplayBuffer');
    await frontend.next('ReplayBufferSaved', () => true, 15000);
    const saved = await frontend.until('State', (state) => buffers(state).length === 1);
    const seconds = Number((await probe(buffers(saved)[0]!.filePath)).format.duration);
    expect(seconds).to.be.within(1.5, 4.2);

    frontend.send('StopRecording');
    const stopped = await frontend.until('State', (state) => state.recording === null, 15000);
    await sleep(300);
    expect(stopped.content.map((item) => item.type)).to.deep.equal(['Buffer']);
    expect(existsSync(path.join(under.content.path, 'Full Sessions'))).to.equal(false);
    expect(existsSync(path.join(cacheFolder, 'replay-buffer', segmentFolder!))).to.equal(false);
    expect(await refusal(frontend, 'SaveReplayBuffer')).to.deep.include({ code: 'NotAllowed' });

    frontend.send('UpdateSettings', { recordingMode: 'Session' });
    await frontend.next('Settings');
    await startRecording(frontend);
    const refused = await refusal(frontend, 'SaveReplayBuffer');
    expect(refused).to.deep.include({ code: 'NotAllowed' });
    expect(refused.message).to.match(/Session/);
    // The refused saves (no recording, Session mode) announced nothing.
    expect(saveAnnouncements(frontend)).to.deep.equal(['ReplayBufferSaveStarted', 'ReplayBufferSaved']);
    frontend.send('StopRecording');
    await frontend.until('State', (state) => state.recording === null && state.content.length === 2, 15000);
    expect(frontend.schemaViolations).to.deep.equal([]);
    console.log(`      Buffer mode: saved ${seconds.toFixed(3)} s after 1 s of recording`);
  });
});
