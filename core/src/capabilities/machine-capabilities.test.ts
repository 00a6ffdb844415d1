import 'reflect-metadata';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemCommandRunner, type CommandResult, type CommandRunner } from '../platform/system-commands.js';
import { StatePublisher } from '../state/state-publisher.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import {
  downloadFfmpegBuild,
  FfmpegToolboxConfig,
  listedProfiles,
  locateFfmpegTools,
  parseEncoders,
  parseFilters,
  parseHwaccels,
  parseInputDevices,
  parseVersion,
} from '../media/ffmpeg-toolbox.js';
import { CommandError } from '../protocol/refusal.js';
import { MachineCapabilities, MachineCapabilitiesConfig } from './machine-capabilities.js';
import { RecordedEvents } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/** Delegates to `inner`, lets `answer` replace a reply, and keeps every call with its reply. */
function spyRunner(
  inner: CommandRunner,
  answer: (line: string, args: readonly string[]) => CommandResult | undefined | 'pass' = () => 'pass',
) {
  const calls: { line: string; result: CommandResult | undefined }[] = [];
  const run: CommandRunner = async (command, args) => {
    const line = [command, ...args].join(' ');
    const replaced = answer(line, args);
    const result = replaced === 'pass' ? await inner(command, args) : replaced;
    calls.push({ line, result });
    return result;
  };
  return { run, calls };
}

// Rows as the bundled 2018 build and Debian's 5.1 print them.
const ENCODERS = ` V..... = Video
 A..... = Audio
 ------
 V..X.. libaom-av1           libaom AV1 (codec av1)
 V..... libx264              libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (codec h264)
 V..... libx264rgb           libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 RGB (codec h264)
 V....D h264_nvenc           NVIDIA NVENC H.264 encoder (codec h264)
 V..... h264_vaapi           H.264/AVC (VAAPI) (codec h264)
 V....D libsvtav1            SVT-AV1(Scalable Video Technology for AV1) encoder (codec av1)
 A..... aac                  AAC (Advanced Audio Coding)
`;
const DEVICES = `Devices:
 D. = Demuxing supported
 .E = Muxing supported
 --
 DE alsa            ALSA audio output
 D  lavfi           Libavfilter virtual input device
 DE pulse           Pulse audio output
 DE video4linux2,v4l2 Video4Linux2 output device
 D  x11grab         X11 screen capture, using XCB
  E xv              XV (XVideo) output device
`;

describe('MachineCapabilities', function () {
  this.timeout(30000);
  const real = locateFfmpegTools();
  let folder: string;
  let events: RecordedEvents;
  let server: Server | undefined;
  const apps: TestApp[] = [];

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-capabilities-'));
    events = new RecordedEvents();
  });
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
    for (const app of apps.splice(0)) await app.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  type Config = Partial<FfmpegToolboxConfig & MachineCapabilitiesConfig>;
  /** The capabilities of a (new) run of the service on `folder`, on this machine as `config` describes it. */
  const machineWith = async ({ sysfsRoot, ...toolbox }: Config) => {
    const app = await createTestApp({
      dataFolder: folder,
      overrides: [
        [EVENT_SINK, events],
        [FfmpegToolboxConfig, Object.assign(new FfmpegToolboxConfig(), toolbox)],
        [MachineCapabilitiesConfig, Object.assign(new MachineCapabilitiesConfig(), sysfsRoot === undefined ? {} : { sysfsRoot })],
      ],
    });
    apps.push(app);
    const machine = app.resolve(MachineCapabilities);
    const state = app.resolve(StatePublisher);
    state.follow({ capabilities: machine });
    return { machine, state };
  };
  /**
   * No DISPLAY, no PATH (so no pactl answers): the machine's own devices do not leak into the assertions, and
   * the bundled ffmpeg is the one probed even where a distribution's ffmpeg is installed.
   */
  const headless = { platform: process.platform, home: os.homedir(), variables: {} };
  const noSysfs = () => path.join(folder, 'no-sysfs');

  it('parses the listings of old and new builds', () => {
    expect(parseVersion('ffmpeg version N-47683-g0e8eb07980-static https://johnvansickle.com/ffmpeg/  Copyright')).to.equal(
      'N-47683-g0e8eb07980-static',
    );
    expect(parseVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2025')).to.equal('5.1.9-0+deb12u1');
    const encoders = parseEncoders(ENCODERS);
    expect(encoders.map((encoder) => `${encoder.type}:${encoder.name}${encoder.experimental ? '!' : ''}`)).to.deep.equal([
      'video:libaom-av1!',
      'video:libx264',
      'video:libx264rgb',
      'video:h264_nvenc',
      'video:h264_vaapi',
      'video:libsvtav1',
      'audio:aac',
    ]);
    // Known, listed, not experimental; libaom only without SVT-AV1.
    expect(listedProfiles({ encoders }).map((entry) => entry.id)).to.deep.equal(['h264_nvenc', 'h264_vaapi', 'libx264', 'libsvtav1']);
    expect(parseInputDevices(DEVICES)).to.deep.equal(['alsa', 'lavfi', 'pulse', 'video4linux2', 'v4l2', 'x11grab']);
    expect([
      ...parseFilters(
        ' ... amix              N->A       Audio mixing.\n TSC anullsrc          |->A       Null audio source.\n T.. = Timeline support\n ... ddagrab           |->V       Grab Windows Desktop images using Desktop Duplication API.\n',
      ),
    ]).to.deep.equal(['amix', 'anullsrc', 'ddagrab']);
    expect(parseHwaccels('Hardware acceleration methods:\nvdpau\nvaapi\n\n')).to.deep.equal(['vdpau', 'vaapi']);
  });

  it('probes the bundled ffmpeg once, offers only encoders that work here, and fills State', async () => {
    const sysfs = path.join(folder, 'sys');
    await mkdir(path.join(sysfs, 'class', 'drm', 'card0', 'device'), { recursive: true });
    await writeFile(path.join(sysfs, 'class', 'drm', 'card0', 'device', 'vendor'), '0x8086\n');
    const spy = spyRunner(systemCommandRunner());
    const { machine, state } = await machineWith({ environment: headless, run: spy.run, sysfsRoot: sysfs });
    const started = Date.now();
    await Promise.all([machine.start(), machine.start()]);
    await machine.start();
    const tookMs = Date.now() - started;
    expect(spy.calls.filter((call) => call.line.endsWith(' -hide_banner -encoders'))).to.have.length(1);

    const tools = machine.toolbox.requireFfmpeg('Recording');
    expect(tools.ffmpeg).to.deep.include({ path: real.ffmpeg.path, source: real.ffmpeg.source });
    expect(tools.ffprobe.path).to.equal(real.ffprobe.path);
    expect(machine.toolbox.hasInput('lavfi')).to.equal(true);
    const current = state.current;
    expect(current.hasLoadedCaptureEngine).to.equal(true);
    expect(current.codecs).to.deep.include({ friendlyName: 'H.264 (x264, CPU)', internalEncoderId: 'libx264', isHardwareEncoder: false });
    // Every hardware encoder offered passed a one-frame encode; every one that failed is not offered.
    const testEncodes = spy.calls.filter((call) => call.line.includes(' -frames:v 1 '));
    for (const codec of current.codecs.filter((entry) => entry.isHardwareEncoder)) {
      expect(
        testEncodes.find((call) => call.line.includes(`-c:v ${codec.internalEncoderId} `))?.result?.code,
        codec.internalEncoderId,
      ).to.equal(0);
    }
    for (const failed of testEncodes.filter((call) => call.result?.code !== 0)) {
      const id = /-c:v (\S+)/.exec(failed.line)![1]!;
      expect(current.codecs.map((codec) => codec.internalEncoderId)).to.not.include(id);
    }
    expect(current.availableCaptureEngineVersions[0]).to.deep.equal({
      version: tools.ffmpeg.version,
      isBeta: false,
      supportsFrom: null,
      supportsTo: null,
      url: pathToFileURL(real.ffmpeg.path).href,
    });
    expect(current).to.deep.include({ displays: [], maxDisplayHeight: 1080, gpuVendor: 'Intel', gpuComputeCapability: 0 });
    console.log(
      `      ${tools.ffmpeg.version}: codecs ${current.codecs.map((codec) => codec.internalEncoderId).join(', ')}; ` +
        `inputs ${[...machine.toolbox.probe!.inputFormats].join(', ')}; hwaccels ${machine.toolbox.probe!.hwaccels.join(', ') || 'none'}; ` +
        `test encodes ${testEncodes.map((call) => `${/-c:v (\S+)/.exec(call.line)![1]}=${call.result?.code}`).join(', ') || 'none'}; ${tookMs} ms`,
    );
  });

  it('counts a listed hardware encoder only when a one-frame encode with it succeeds', async () => {
    const spy = spyRunner(systemCommandRunner(), (line) => {
      if (line.endsWith(' -hide_banner -encoders')) return { stdout: ENCODERS, stderr: '', code: 0 };
      if (line.includes('-c:v h264_nvenc ')) return { stdout: '', stderr: '', code: 0 };
      if (line.includes('-c:v h264_vaapi '))
        return { stdout: '', stderr: '[AVHWDeviceContext @ 0x5] No VA display found for device /dev/dri/renderD128.', code: 1 };
      return 'pass';
    });
    // A GPU's device files as a Linux machine with an NVIDIA and an Intel GPU has them (elsewhere the toolbox does not look).
    const gpuDeviceFiles = async () => ({ renderNodes: ['/dev/dri/renderD128'], nvidiaControl: true });
    const { machine, state } = await machineWith({ environment: headless, run: spy.run, sysfsRoot: noSysfs(), gpuDeviceFiles });
    await machine.start();
    expect(state.current.codecs).to.deep.equal([
      { friendlyName: 'H.264 (NVIDIA NVENC)', internalEncoderId: 'h264_nvenc', isHardwareEncoder: true },
      { friendlyName: 'H.264 (x264, CPU)', internalEncoderId: 'libx264', isHardwareEncoder: false },
      { friendlyName: 'AV1 (SVT-AV1, CPU)', internalEncoderId: 'libsvtav1', isHardwareEncoder: false },
    ]);
    const nvencTest = spy.calls.find((call) => call.line.includes('-c:v h264_nvenc'))!.line;
    expect(nvencTest).to.include('-f lavfi -i color=c=black:s=256x144:r=30 -frames:v 1 -an');
    expect(nvencTest).to.include('-preset p4 -rc vbr');
  });

  it('on Linux without GPU device files, spends no start-up on hardware test encodes', async function () {
    if (process.platform !== 'linux') this.skip();
    const spy = spyRunner(systemCommandRunner(), (line) =>
      line.endsWith(' -hide_banner -encoders') ? { stdout: ENCODERS, stderr: '', code: 0 } : 'pass',
    );
    const gpuDeviceFiles = async () => ({ renderNodes: [], nvidiaControl: false });
    const { machine, state } = await machineWith({ environment: headless, run: spy.run, sysfsRoot: noSysfs(), gpuDeviceFiles });
    await machine.start();
    expect(
      spy.calls.filter((call) => call.line.includes(' -frames:v 1 ')),
      'test encodes',
    ).to.deep.equal([]);
    expect(state.current.codecs.map((codec) => codec.internalEncoderId)).to.deep.equal(['libx264', 'libsvtav1']);
  });

  /** Only @ffprobe-installer loads; no FFMPEG_PATH, nothing on PATH: there is no ffmpeg. */
  const requireHere = createRequire(import.meta.url);
  const withoutFfmpeg = (variables: NodeJS.ProcessEnv = {}): Config => ({
    environment: { platform: process.platform, home: os.homedir(), variables: { PATH: '', ...variables } },
    loadPackage: (specifier) => {
      if (specifier.startsWith('@ffprobe-installer/')) return requireHere(specifier) as unknown;
      throw new Error(`Cannot find module '${specifier}'`);
    },
    sysfsRoot: noSysfs(),
  });

  it('without any ffmpeg: tells the user how to fix it and still marks the engine loaded', async () => {
    const { machine, state } = await machineWith(withoutFfmpeg());
    await machine.start();
    const [modal] = events.of('ShowModal');
    expect(modal).to.deep.include({ title: 'Recording is not available', subtitle: 'Capture engine not found', type: 'error' });
    expect(modal!.description)
      .to.match(/install ffmpeg/)
      .and.match(/npm install/)
      .and.match(/FFMPEG_PATH/);
    expect(state.current.hasLoadedCaptureEngine).to.equal(true);
    expect(state.current.codecs).to.deep.equal([]);
    expect(machine.toolbox.available).to.equal(false);
    expect(() => machine.toolbox.requireFfmpeg('Recording')).to.throw(
      CommandError,
      /^Recording needs ffmpeg, which is not available: .*install ffmpeg/,
    );
  });

  /** A stand-in for an ffmpeg build: a shell script that runs the real one, padded to 256 KB. */
  const standIn = () => Buffer.from(`#!/bin/sh\nexec '${real.ffmpeg.path}' "$@"\n${`# padding${'.'.repeat(54)}\n`.repeat(4096)}`);
  const serve = async (body: Buffer) => {
    const hits: string[] = [];
    server = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
      // In 8 KB pieces, a tick apart, as a slow network would deliver them.
      let offset = 0;
      const next = () => {
        if (offset >= body.length) return void response.end();
        response.write(body.subarray(offset, offset + 8192));
        offset += 8192;
        setImmediate(next);
      };
      next();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/ffmpeg`, hits };
  };
  const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

  it('downloads the configured engine when there is none: progress in whole percents, checked, executable, used', async function () {
    if (process.platform === 'win32') this.skip();
    const body = standIn();
    const { url, hits } = await serve(body);
    const { machine, state } = await machineWith(
      withoutFfmpeg({ KEYFRAME_CAPTURE_ENGINE_URL: url, KEYFRAME_CAPTURE_ENGINE_SHA256: sha256(body).toUpperCase() }),
    );
    await machine.start();
    expect(events.of('ShowModal')).to.deep.equal([]);
    const downloaded = path.join(folder, 'capture-engine', 'ffmpeg');
    expect(machine.toolbox.requireFfmpeg('Recording').ffmpeg).to.deep.include({ path: downloaded, source: 'downloaded' });
    expect(() => accessSync(downloaded, constants.X_OK)).to.not.throw();
    expect(await readdir(path.join(folder, 'capture-engine'))).to.deep.equal(['ffmpeg']);
    expect(state.current.availableCaptureEngineVersions.map((version) => version.url)).to.deep.equal([pathToFileURL(downloaded).href]);
    expect(state.current.codecs.map((codec) => codec.internalEncoderId)).to.include('libx264');

    const progress = events.of('CaptureEngineDownloadProgress');
    const percents = progress.map((event) => event.progress);
    expect(progress.every((event) => event.status === 'downloading')).to.equal(true);
    expect(percents.every(Number.isInteger)).to.equal(true);
    expect(percents.length).to.be.at.least(5);
    for (let index = 1; index < percents.length; index++) expect(percents[index]).to.be.greaterThan(percents[index - 1]!);
    expect(percents.at(-1)).to.equal(100);
    console.log(
      `      ${body.length} bytes in ${hits.length} request: ${percents.length} progress events (${percents.slice(0, 4).join(', ')} … ${percents.at(-1)})`,
    );

    // The next start finds the downloaded engine and does not fetch it again.
    events = new RecordedEvents();
    const again = await machineWith(withoutFfmpeg({ KEYFRAME_CAPTURE_ENGINE_URL: url, KEYFRAME_CAPTURE_ENGINE_SHA256: sha256(body) }));
    await again.machine.start();
    expect(again.machine.toolbox.requireFfmpeg('Recording').ffmpeg.source).to.equal('downloaded');
    expect(hits).to.have.length(1);
    expect(events.of('CaptureEngineDownloadProgress')).to.deep.equal([]);
  });

  it('refuses a download whose SHA-256 does not match and keeps no file', async () => {
    const body = standIn();
    const { url } = await serve(body);
    const { machine, state } = await machineWith(
      withoutFfmpeg({ KEYFRAME_CAPTURE_ENGINE_URL: url, KEYFRAME_CAPTURE_ENGINE_SHA256: sha256(Buffer.from('something else')) }),
    );
    await machine.start();
    const [modal] = events.of('ShowModal');
    expect(modal).to.deep.include({ subtitle: 'Capture engine download failed', type: 'error' });
    expect(modal!.description)
      .to.include(`has SHA-256 ${sha256(body)}`)
      .and.include('deleted and not run');
    expect(await readdir(path.join(folder, 'capture-engine'))).to.deep.equal([]);
    expect(machine.toolbox.available).to.equal(false);
    expect(state.current.hasLoadedCaptureEngine).to.equal(true);
  });

  it('does not download without a checksum to verify', async () => {
    const { url, hits } = await serve(standIn());
    const { machine } = await machineWith(withoutFfmpeg({ KEYFRAME_CAPTURE_ENGINE_URL: url }));
    await machine.start();
    expect(events.of('ShowModal')[0]!.description).to.match(/KEYFRAME_CAPTURE_ENGINE_SHA256 is not/);
    expect(hits).to.deep.equal([]);
    expect(existsSync(path.join(folder, 'capture-engine'))).to.equal(false);
  });

  it('a failed download leaves nothing behind', async () => {
    const target = path.join(folder, 'machine');
    const error = await downloadFfmpegBuild({ url: 'http://127.0.0.1:9/ffmpeg', sha256: '00', folder: target, fileName: 'ffmpeg' }).then(
      () => undefined,
      (failure: Error) => failure,
    );
    expect(error?.message).to.match(/^Downloading the capture engine from http:\/\/127\.0\.0\.1:9\/ffmpeg failed: /);
    expect(await readdir(target)).to.deep.equal([]);
  });
});
