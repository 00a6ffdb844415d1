// The microphones (inputs) and speakers (outputs) a recording can take sound from: PulseAudio
// (also PipeWire's pulse server) on Linux, DirectShow on Windows, AVFoundation on macOS.
import type { AudioDevice } from '../protocol/index.js';
import type { Environment } from './data-folders.js';
import type { CommandRunner } from './system-commands.js';

/** The ffmpeg input device that opens `DetectedAudioDevice.source`. */
export type AudioBackend = 'pulse' | 'dshow' | 'avfoundation';

export interface DetectedAudioDevice extends AudioDevice {
  /**
   * What ffmpeg opens to hear it: a PulseAudio source (for an output, the sink's `.monitor`), a
   * DirectShow audio device, an AVFoundation audio device name.
   */
  source: string;
}

export interface AudioDevices {
  /** Undefined when no audio system could be asked. */
  backend?: AudioBackend;
  /** Default device first, then by name. */
  inputs: DetectedAudioDevice[];
  outputs: DetectedAudioDevice[];
}

export const NO_AUDIO_DEVICES: AudioDevices = { inputs: [], outputs: [] };

export const toWireAudioDevice = ({ id, name, isDefault }: DetectedAudioDevice): AudioDevice => ({ id, name, isDefault });

/** `ffmpegPath` lists DirectShow / AVFoundation devices; Linux asks pactl. */
export async function detectAudioDevices(run: CommandRunner, environment: Environment, ffmpegPath?: string): Promise<AudioDevices> {
  if (environment.platform === 'win32') {
    if (!ffmpegPath) return NO_AUDIO_DEVICES;
    const result = await run(ffmpegPath, ['-hide_banner', '-list_devices', 'true', '-f', 'dshow', '-i', 'dummy']);
    return result ? parseDshowDevices(result.stderr) : NO_AUDIO_DEVICES;
  }
  if (environment.platform === 'darwin') {
    if (!ffmpegPath) return NO_AUDIO_DEVICES;
    const result = await run(ffmpegPath, ['-hide_banner', '-f', 'avfoundation', '-list_devices', 'true', '-i', '']);
    return result ? parseAvfoundationDevices(result.stderr) : NO_AUDIO_DEVICES;
  }
  return detectPulseDevices(run);
}

async function detectPulseDevices(run: CommandRunner): Promise<AudioDevices> {
  const [sources, sinks, defaultSource, defaultSink] = await Promise.all([
    run('pactl', ['--format=json', 'list', 'sources']),
    run('pactl', ['--format=json', 'list', 'sinks']),
    run('pactl', ['get-default-source']),
    run('pactl', ['get-default-sink']),
  ]);
  if (!sources) return NO_AUDIO_DEVICES; // no pactl
  const defaults =
    defaultSource?.code === 0 && defaultSink?.code === 0
      ? { source: defaultSource.stdout.trim(), sink: defaultSink.stdout.trim() }
      : await run('pactl', ['info']).then((info) => parsePactlInfoDefaults(info?.stdout ?? ''));
  if (sources.code === 0 && sinks?.code === 0) {
    const parsed = parsePactlJson(sources.stdout, sinks.stdout, defaults);
    if (parsed) return parsed;
  }
  // pactl before 16 has no JSON output.
  const [shortSources, shortSinks] = await Promise.all([
    run('pactl', ['list', 'short', 'sources']),
    run('pactl', ['list', 'short', 'sinks']),
  ]);
  if (shortSources?.code !== 0 || shortSinks?.code !== 0) return NO_AUDIO_DEVICES;
  return parsePactlShort(shortSources.stdout, shortSinks.stdout, defaults);
}

export interface PulseDefaults {
  source?: string;
  sink?: string;
}

interface PulseEntry {
  index?: number;
  name?: string;
  description?: string;
  /** Sinks: their monitor source (a name, in some versions an index). Sources: the sink they monitor, or `""`. */
  monitor_source?: string | number | null;
  /** Sources, in some servers: the monitored sink's index or name; absent, null, `n/a` or 2^32-1 for none. */
  monitor_of_sink?: string | number | null;
  properties?: Record<string, string>;
}

/** `pactl --format=json list sources` / `… sinks`; undefined when it is not JSON. */
export function parsePactlJson(sourcesJson: string, sinksJson: string, defaults: PulseDefaults): AudioDevices | undefined {
  let sources: PulseEntry[];
  let sinks: PulseEntry[];
  try {
    sources = JSON.parse(sourcesJson) as PulseEntry[];
    sinks = JSON.parse(sinksJson) as PulseEntry[];
  } catch {
    return undefined;
  }
  if (!Array.isArray(sources) || !Array.isArray(sinks)) return undefined;
  // A monitor source is a sink's loopback: it is offered as that output, not as a microphone.
  const inputs = sources
    .filter((source) => source.name && !isMonitor(source))
    .map((source) => ({
      id: source.name!,
      name: source.description || source.name!,
      isDefault: source.name === defaults.source,
      source: source.name!,
    }));
  const monitorOf = (sink: PulseEntry) => {
    if (typeof sink.monitor_source === 'string' && sink.monitor_source) return sink.monitor_source;
    const byIndex =
      typeof sink.monitor_source === 'number' ? sources.find((source) => source.index === sink.monitor_source)?.name : undefined;
    return byIndex ?? `${sink.name}.monitor`;
  };
  const outputs = sinks
    .filter((sink) => sink.name)
    .map((sink) => ({
      id: sink.name!,
      name: sink.description || sink.name!,
      isDefault: sink.name === defaults.sink,
      source: monitorOf(sink),
    }));
  return { backend: 'pulse', inputs: defaultFirst(inputs), outputs: defaultFirst(outputs) };
}

const NO_INDEX = 0xffffffff;
const names = (value: string | number | null | undefined) =>
  typeof value === 'string' ? value !== '' && value !== 'n/a' : typeof value === 'number' && value >= 0 && value !== NO_INDEX;
const isMonitor = (source: PulseEntry) =>
  names(source.monitor_source) ||
  names(source.monitor_of_sink) ||
  source.properties?.['device.class'] === 'monitor' ||
  /\.monitor$/.test(source.name ?? '');

/** `pactl list short sources` / `… sinks`: index, name, driver, sample spec, state (no descriptions). */
export function parsePactlShort(sourcesText: string, sinksText: string, defaults: PulseDefaults): AudioDevices {
  const names = (text: string) =>
    text
      .split(/\r?\n/)
      .map((line) => line.split('\t')[1]?.trim())
      .filter((name): name is string => Boolean(name));
  const inputs = names(sourcesText)
    .filter((name) => !name.endsWith('.monitor'))
    .map((name) => ({ id: name, name, isDefault: name === defaults.source, source: name }));
  const outputs = names(sinksText).map((name) => ({ id: name, name, isDefault: name === defaults.sink, source: `${name}.monitor` }));
  return { backend: 'pulse', inputs: defaultFirst(inputs), outputs: defaultFirst(outputs) };
}

/** `pactl info` (run with LC_ALL=C): `Default Sink: …` and `Default Source: …`. */
export function parsePactlInfoDefaults(text: string): PulseDefaults {
  const value = (label: string) => new RegExp(`^${label}:\\s*(\\S+)`, 'm').exec(text)?.[1];
  const defaults: PulseDefaults = {};
  const source = value('Default Source');
  const sink = value('Default Sink');
  if (source) defaults.source = source;
  if (sink) defaults.sink = sink;
  return defaults;
}

/** Capture devices that carry what the speakers play (loopback drivers); they count as outputs. */
const LOOPBACK_NAMES = /stereo mix|what u hear|wave out mix|virtual-audio-capturer|loopback|blackhole|soundflower|cable output/i;

/**
 * Which loopback records what the speakers play most surely, best first (the first output is the
 * one recorded when the settings name none; neither DirectShow nor AVFoundation tells a default):
 * screen-capture-recorder's `virtual-audio-capturer` is a WASAPI loopback of the default playback
 * device; a driver's `Stereo Mix` mixes what its own speakers play; a virtual cable (VB-CABLE's
 * `CABLE Output`, BlackHole, Soundflower) carries only what is routed into it.
 */
const LOOPBACK_PREFERENCE = [/virtual-audio-capturer/i, /stereo mix|what u hear|wave out mix/i];
const loopbackRank = (device: AudioDevice) => {
  const rank = LOOPBACK_PREFERENCE.findIndex((pattern) => pattern.test(device.name));
  return rank < 0 ? LOOPBACK_PREFERENCE.length : rank;
};
const loopbacksBestFirst = <T extends AudioDevice>(devices: T[]) => sortByName(devices).sort((a, b) => loopbackRank(a) - loopbackRank(b));

/**
 * `ffmpeg -list_devices true -f dshow -i dummy` (stderr). ffmpeg 5+ marks each device
 * `"Name" (audio)`; older versions list video devices, then a `DirectShow audio devices` block.
 * DirectShow cannot tell the default device: none is marked.
 */
export function parseDshowDevices(stderr: string): AudioDevices {
  const devices: { name: string; alternative?: string }[] = [];
  let section: 'video' | 'audio' | undefined;
  let last: { name: string; alternative?: string } | undefined;
  for (const rawLine of stderr.split(/\r?\n/)) {
    const line = rawLine.replace(/^\[dshow @ [^\]]*\]\s?/, '');
    if (/DirectShow video devices/i.test(line)) {
      section = 'video';
      last = undefined;
      continue;
    }
    if (/DirectShow audio devices/i.test(line)) {
      section = 'audio';
      last = undefined;
      continue;
    }
    const alternative = /^\s+Alternative name "([^"]+)"/.exec(line);
    if (alternative) {
      if (last) last.alternative = alternative[1];
      continue;
    }
    const device = /^\s*"([^"]+)"(?:\s+\((audio|video|none)\))?/.exec(line);
    if (!device) continue;
    const kind = device[2] ?? section;
    last = kind === 'audio' ? { name: device[1]! } : undefined;
    if (last) devices.push(last);
  }
  const detected = devices.map(({ name, alternative }) => ({
    id: alternative ?? name,
    name,
    isDefault: false,
    source: alternative ?? name,
  }));
  return {
    backend: 'dshow',
    inputs: sortByName(detected.filter((device) => !LOOPBACK_NAMES.test(device.name))),
    outputs: loopbacksBestFirst(detected.filter((device) => LOOPBACK_NAMES.test(device.name))),
  };
}

/** `ffmpeg -f avfoundation -list_devices true -i ""` (stderr): `[AVFoundation indev @ …] [1] Name` lines. */
export function parseAvfoundationDevices(stderr: string): AudioDevices {
  const names: string[] = [];
  let inAudio = false;
  for (const line of stderr.split(/\r?\n/)) {
    if (/AVFoundation video devices/i.test(line)) {
      inAudio = false;
      continue;
    }
    if (/AVFoundation audio devices/i.test(line)) {
      inAudio = true;
      continue;
    }
    const device = /\]\s*\[(\d+)\]\s+(.+?)\s*$/.exec(line);
    if (inAudio && device) names.push(device[2]!);
  }
  const detected = names.map((name) => ({ id: name, name, isDefault: false, source: name }));
  return {
    backend: 'avfoundation',
    inputs: sortByName(detected.filter((device) => !LOOPBACK_NAMES.test(device.name))),
    outputs: loopbacksBestFirst(detected.filter((device) => LOOPBACK_NAMES.test(device.name))),
  };
}

const sortByName = <T extends AudioDevice>(devices: T[]) => devices.sort((a, b) => a.name.localeCompare(b.name));
const defaultFirst = <T extends AudioDevice>(devices: T[]) => sortByName(devices).sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
