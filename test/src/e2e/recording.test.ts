// Recording a Session with the real service and real ffmpeg (synthetic capture): what the frontend
// sees, what lands on disk (video, metadata, thumbnail, waveform), and what survives a crash or a
// shutdown mid-recording.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseDuration } from '@keyframe/core/protocol';
import { ProtocolClient } from '@keyframe/integration-testkit';
import { processesMentioning } from '../kit/processes.js';
import { serviceUnderTest } from '../kit/service-under-test.js';

/** ffprobe as the service finds it: FFPROBE_PATH, else the package @keyframe/core depends on. */
function ffprobePath(): string {
  if (process.env.FFPROBE_PATH) return process.env.FFPROBE_PATH;
  const fromCore = createRequire(createRequire(import.meta.url).resolve('@keyframe/core/package.json'));
  return (fromCore('@ffprobe-installer/ffprobe') as { path: string }).path;
}

function ffprobe(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(ffprobePath(), ['-v', 'error', ...args], (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(stdout),
    );
  });
}

interface Probe {
  format: { duration?: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; duration?: string }[];
}
const probe = async (file: string) => JSON.parse(await ffprobe(['-print_format', 'json', '-show_format', '-show_streams', file])) as Probe;

const keyframeTimes = async (file: string) =>
  (await ffprobe(['-select_streams', 'v:0', '-skip_frame', 'nokey', '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', file]))
    .split('\n')
    .map((line) => Number.parseFloat(line))
    .filter(Number.isFinite);

const sleepUntil = (time: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));

describe('recording', function () {
  this.timeout(60000);
  const under = serviceUnderTest();

  const configure = async (frontend: ProtocolClient) => {
    frontend.send('UpdateSettings', { resolution: '720p', frameRate: 30, recordingMode: 'Session', contentFolder: under.content.path });
    await frontend.next('Settings');
  };
  /** Starts a recording and resolves with the State that shows it running. */
  const startRecording = async (frontend: ProtocolClient) => {
    frontend.send('StartRecording');
    const waiting = await frontend.next('State', (state) => state.preRecording !== null);
    const running = await frontend.next('State', (state) => state.recording !== null && state.preRecording === null, 15000);
    return { waiting, running, startedAt: Date.parse(running.recording!.startTime) };
  };

  it('records a Session: preRecording, recording, then a playable H.264/AAC item with metadata', async () => {
    const { client: frontend, state } = await under.connect();
    expect(state.hasLoadedCaptureEngine).to.equal(true);
    await configure(frontend);

    const { waiting, running, startedAt } = await startRecording(frontend);
    expect(waiting.preRecording).to.deep.equal({
      game: 'Manual Recording',
      status: 'Waiting to start',
      coverImageId: null,
      pid: null,
      exe: null,
    });
    const recording = running.recording!;
    expect(recording).to.deep.include({
      game: 'Manual Recording',
      fileName: 'Unknown',
      endTime: null,
      duration: null,
      pid: null,
      exePath: null,
      isUsingGameHook: false,
      bookmarks: [],
      audioTrackNames: ['Full Mix'],
      coverImageId: null,
    });
    const expectedFolder = path.join(under.content.path, 'Full Sessions', 'Manual Recording').replaceAll('\\', '/');
    expect(path.posix.dirname(recording.filePath!)).to.equal(expectedFolder);
    expect(path.posix.basename(recording.filePath!)).to.match(/^\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4$/);
    expect(Math.abs(startedAt - Date.now())).to.be.below(3000);

    frontend.send('StartRecording');
    expect(await frontend.next('CommandRejected')).to.deep.include({ method: 'StartRecording', code: 'NotAllowed' });

    await sleepUntil(startedAt + 3000);
    frontend.send('StopRecording');
    const stopping = await frontend.next('State', (next) => next.recording?.endTime !== null && next.recording?.endTime !== undefined);
    expect(parseDuration(stopping.recording!.duration!)).to.be.within(2.8, 4);
    const saved = await frontend.next('State', (next) => next.recording === null && next.content.length === 1, 20000);
    const item = saved.content[0]!;
    expect(item).to.deep.include({
      type: 'Session',
      game: 'Manual Recording',
      title: '',
      bookmarks: [],
      filePath: recording.filePath,
      fileName: path.posix.basename(recording.filePath!, '.mp4'),
      isImported: false,
      compressed: false,
      aiAnalysis: null,
    });
    expect(item.id).to.match(/^[0-9a-f]{32}$/);
    expect(item.fileSizeKb).to.be.greaterThan(10);
    expect(item.fileSize).to.match(/^\d+\.\d\d MB$/);
    const itemSeconds = parseDuration(item.duration)!;
    expect(itemSeconds).to.be.within(2.5, 3.5);

    const probed = await probe(item.filePath);
    const seconds = Number(probed.format.duration);
    expect(seconds, 'probed duration').to.be.within(2.5, 3.5);
    expect(probed.streams.map((stream) => `${stream.codec_type}:${stream.codec_name}`)).to.deep.equal(['video:h264', 'audio:aac']);
    expect(probed.streams[0]).to.deep.include({ width: 1280, height: 720 });
    const keyframes = await keyframeTimes(item.filePath);
    expect(keyframes.length, `keyframes at ${keyframes.join(', ')}`).to.be.at.least(3);
    for (let index = 1; index < keyframes.length; index++) {
      expect(keyframes[index]! - keyframes[index - 1]!, `keyframes at ${keyframes.join(', ')}`).to.be.closeTo(1, 0.05);
    }

    const sidecar = JSON.parse(
      await readFile(path.join(under.data.path, 'cache', 'metadata', 'Full Sessions', `${item.id}.json`), 'utf8'),
    ) as Record<string, unknown>;
    expect(sidecar).to.deep.include({ id: item.id, filePath: item.filePath });
    expect(sidecar.durationSeconds).to.be.closeTo(itemSeconds, 0.01);
    expect(Date.parse(sidecar.recordedFrom as string)).to.equal(startedAt);
    expect(await readdir(path.join(under.data.path, 'cache', 'recordings'))).to.deep.equal([]);

    // Thumbnail (720 px wide JPEG) and waveform peaks, named by the item's id, in place once the recording is saved.
    const thumbnail = await probe(path.join(under.data.path, 'cache', 'thumbnails', 'Full Sessions', `${item.id}.jpeg`));
    expect(thumbnail.streams[0]).to.deep.include({ codec_name: 'mjpeg', width: 720 });
    const peaks = JSON.parse(
      await readFile(path.join(under.data.path, 'cache', 'waveforms', 'Full Sessions', `${item.id}.peaks.json`), 'utf8'),
    ) as {
      version: number;
      channels: number;
      sample_rate: number;
      samples_per_pixel: number;
      bits: number;
      length: number;
      data: number[];
    };
    expect(Object.keys(peaks)).to.deep.equal(['version', 'channels', 'sample_rate', 'samples_per_pixel', 'bits', 'length', 'data']);
    expect(peaks).to.deep.include({ version: 2, channels: 1, sample_rate: 11025, bits: 8 });
    expect(peaks.samples_per_pixel).to.be.within(215, 225);
    expect(peaks.length).to.equal(peaks.data.length);
    // Per second of sound: the synthetic source's audio ends a little before its picture.
    const audioSeconds = Number(probed.streams.find((stream) => stream.codec_type === 'audio')!.duration);
    expect(peaks.length / 2 / audioSeconds, 'min/max pairs per second').to.be.within(48, 52);
    expect(peaks.data.every((value) => Number.isInteger(value) && value >= -128 && value <= 127)).to.equal(true);
    // The synthetic 440 Hz tone at 1/8 of full scale: about ±11 after the mix to mono, in every column past the first.
    const maxima = peaks.data.filter((_, index) => index % 2 === 1).slice(1, -1);
    expect(Math.min(...maxima)).to.be.within(8, 13);
    expect(Math.max(...maxima)).to.be.within(8, 13);

    frontend.send('StopRecording');
    expect(await frontend.next('CommandRejected')).to.deep.include({ method: 'StopRecording', code: 'NotAllowed' });
    expect(frontend.schemaViolations).to.deep.equal([]);
    console.log(
      `      recorded ${((Date.now() - startedAt) / 1000).toFixed(2)} s wall; item ${itemSeconds.toFixed(3)} s; probed ${seconds.toFixed(3)} s; keyframes ${keyframes.join(', ')}`,
    );
  });

  it('leaves a playable fragmented MP4 in the cache when the service is killed mid-recording', async () => {
    const { client: frontend } = await under.connect();
    await configure(frontend);
    const { startedAt } = await startRecording(frontend);
    // Fragments are complete at each keyframe (every second); the one being written is lost.
    await sleepUntil(startedAt + 3500);
    await under.process.kill();

    const recordings = path.join(under.data.path, 'cache', 'recordings');
    const files = await readdir(recordings);
    expect(files).to.have.length(1);
    expect(files[0]).to.match(/\.mp4$/);
    const probed = await probe(path.join(recordings, files[0]!));
    expect(Number(probed.format.duration)).to.be.greaterThan(1);
    expect(probed.streams.map((stream) => stream.codec_type)).to.include('video');
    // ffmpeg ends with the service instead of recording on forever.
    let left = await processesMentioning(under.data.path);
    for (let attempt = 0; attempt < 20 && left.length > 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = await processesMentioning(under.data.path);
    }
    expect(left).to.deep.equal([]);
    console.log(`      after kill -9: ${files[0]} probed ${Number(probed.format.duration).toFixed(3)} s`);
  });

  it('saves the recording as content when the service is stopped (SIGTERM) mid-recording', async () => {
    const { client: frontend } = await under.connect();
    await configure(frontend);
    const { running, startedAt } = await startRecording(frontend);
    await sleepUntil(startedAt + 2000);
    expect(await under.process.stop()).to.deep.equal({ code: 0, signal: null });

    const videoFile = running.recording!.filePath!;
    expect(existsSync(videoFile)).to.equal(true);
    expect(await readdir(path.join(under.data.path, 'cache', 'recordings'))).to.deep.equal([]);
    expect(await readdir(path.join(under.data.path, 'cache', 'metadata', 'Full Sessions'))).to.have.length(1);

    await under.client!.close();
    const restarted = await under.connect();
    expect(restarted.state.content).to.have.length(1);
    expect(restarted.state.content[0]).to.deep.include({ type: 'Session', filePath: videoFile });
    expect(parseDuration(restarted.state.content[0]!.duration)).to.be.within(1.5, 3);
  });
});
