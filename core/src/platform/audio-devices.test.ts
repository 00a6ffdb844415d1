import { expect } from 'chai';
import {
  detectAudioDevices,
  parseAvfoundationDevices,
  parseDshowDevices,
  parsePactlInfoDefaults,
  parsePactlJson,
  parsePactlShort,
  toWireAudioDevice,
} from './audio-devices.js';
import type { CommandResult, CommandRunner } from './system-commands.js';

// The shape of `pactl --format=json list sources|sinks` (pactl 16; trimmed to the fields read and a
// few neighbours). pactl names a source's monitored sink `monitor_source`, and leaves it "" otherwise.
const SOURCES = JSON.stringify([
  {
    index: 0,
    state: 'SUSPENDED',
    name: 'alsa_output.pci-0000_00_1f.3.analog-stereo.monitor',
    description: 'Monitor of Built-in Audio Analog Stereo',
    driver: 'module-alsa-card.c',
    sample_specification: 's16le 2ch 44100Hz',
    mute: false,
    monitor_source: 'alsa_output.pci-0000_00_1f.3.analog-stereo',
    properties: { 'device.class': 'monitor' },
  },
  {
    index: 1,
    state: 'RUNNING',
    name: 'alsa_input.pci-0000_00_1f.3.analog-stereo',
    description: 'Built-in Audio Analog Stereo',
    driver: 'module-alsa-card.c',
    sample_specification: 's16le 2ch 44100Hz',
    mute: false,
    monitor_source: '',
    properties: { 'device.class': 'sound' },
  },
  {
    index: 2,
    state: 'SUSPENDED',
    name: 'alsa_input.usb-Blue_Microphones_Yeti-00.analog-stereo',
    description: 'Yeti Stereo Microphone',
    driver: 'module-alsa-card.c',
    sample_specification: 's16le 2ch 48000Hz',
    mute: false,
    monitor_source: '',
    properties: { 'device.class': 'sound' },
  },
  { index: 3, name: 'alsa_output.usb-headset.analog-stereo.monitor', description: 'Monitor of Headset', monitor_of_sink: 2 },
]);
const SINKS = JSON.stringify([
  {
    index: 0,
    state: 'RUNNING',
    name: 'alsa_output.pci-0000_00_1f.3.analog-stereo',
    description: 'Built-in Audio Analog Stereo',
    driver: 'module-alsa-card.c',
    monitor_source: 'alsa_output.pci-0000_00_1f.3.analog-stereo.monitor',
  },
  { index: 2, name: 'alsa_output.usb-headset.analog-stereo', description: 'Headset', monitor_source: 3 },
]);
const DEFAULTS = { source: 'alsa_input.pci-0000_00_1f.3.analog-stereo', sink: 'alsa_output.usb-headset.analog-stereo' };

// `ffmpeg -list_devices true -f dshow -i dummy` of ffmpeg 5+ and of ffmpeg 4.
const DSHOW_5 = `[dshow @ 000001c9f8a8e2c0] "Integrated Camera" (video)
[dshow @ 000001c9f8a8e2c0]   Alternative name "@device_pnp_\\\\?\\usb#vid_04f2&pid_b6d9&mi_00#6&1e7b8a1c&0&0000#{65e8773d-8f56-11d0-a3b9-00a0c9223196}\\global"
[dshow @ 000001c9f8a8e2c0] "Microphone Array (Realtek(R) Audio)" (audio)
[dshow @ 000001c9f8a8e2c0]   Alternative name "@device_cm_{33D9A762-90C8-11D0-BD43-00A0C911CE86}\\wave_{8B1E9F2A-3C44-4F0E-9D5A-1B2C3D4E5F60}"
[dshow @ 000001c9f8a8e2c0] "Stereo Mix (Realtek(R) Audio)" (audio)
[dshow @ 000001c9f8a8e2c0]   Alternative name "@device_cm_{33D9A762-90C8-11D0-BD43-00A0C911CE86}\\wave_{0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9}"
dummy: Immediate exit requested
`;
const DSHOW_4 = `[dshow @ 0000020c2f4b4b40] DirectShow video devices (some may be both video and audio devices)
[dshow @ 0000020c2f4b4b40]  "OBS Virtual Camera"
[dshow @ 0000020c2f4b4b40]     Alternative name "@device_sw_{860BB310-5D01-11D0-BD3B-00A0C911CE86}\\{A3FCE0F5-3493-419F-958A-ABA1250EC20B}"
[dshow @ 0000020c2f4b4b40] DirectShow audio devices
[dshow @ 0000020c2f4b4b40]  "Headset Microphone (HyperX Cloud II)"
[dshow @ 0000020c2f4b4b40]     Alternative name "@device_cm_{33D9A762-90C8-11D0-BD43-00A0C911CE86}\\wave_{11111111-2222-3333-4444-555555555555}"
dummy: Immediate exit requested
`;
const AVFOUNDATION = `[AVFoundation indev @ 0x7f9b1c004a80] AVFoundation video devices:
[AVFoundation indev @ 0x7f9b1c004a80] [0] FaceTime HD Camera
[AVFoundation indev @ 0x7f9b1c004a80] [1] Capture screen 0
[AVFoundation indev @ 0x7f9b1c004a80] AVFoundation audio devices:
[AVFoundation indev @ 0x7f9b1c004a80] [0] MacBook Pro Microphone
[AVFoundation indev @ 0x7f9b1c004a80] [1] BlackHole 2ch
: Input/output error
`;

describe('audio device detection', () => {
  it('lists PulseAudio sources as inputs and sinks as outputs heard through their monitors', () => {
    const devices = parsePactlJson(SOURCES, SINKS, DEFAULTS)!;
    expect(devices.backend).to.equal('pulse');
    expect(devices.inputs).to.deep.equal([
      {
        id: 'alsa_input.pci-0000_00_1f.3.analog-stereo',
        name: 'Built-in Audio Analog Stereo',
        isDefault: true,
        source: 'alsa_input.pci-0000_00_1f.3.analog-stereo',
      },
      {
        id: 'alsa_input.usb-Blue_Microphones_Yeti-00.analog-stereo',
        name: 'Yeti Stereo Microphone',
        isDefault: false,
        source: 'alsa_input.usb-Blue_Microphones_Yeti-00.analog-stereo',
      },
    ]);
    expect(devices.outputs).to.deep.equal([
      {
        id: 'alsa_output.usb-headset.analog-stereo',
        name: 'Headset',
        isDefault: true,
        source: 'alsa_output.usb-headset.analog-stereo.monitor',
      },
      {
        id: 'alsa_output.pci-0000_00_1f.3.analog-stereo',
        name: 'Built-in Audio Analog Stereo',
        isDefault: false,
        source: 'alsa_output.pci-0000_00_1f.3.analog-stereo.monitor',
      },
    ]);
    expect(toWireAudioDevice(devices.outputs[0]!)).to.deep.equal({
      id: 'alsa_output.usb-headset.analog-stereo',
      name: 'Headset',
      isDefault: true,
    });
    expect(parsePactlJson('pactl: unrecognized option', SINKS, DEFAULTS)).to.equal(undefined);
  });

  it('reads the short listing and the defaults of pactl info', () => {
    const sources =
      '0\talsa_output.pci.analog-stereo.monitor\tmodule-alsa-card.c\ts16le 2ch 44100Hz\tSUSPENDED\n1\talsa_input.pci.analog-stereo\tmodule-alsa-card.c\ts16le 2ch 44100Hz\tRUNNING\n';
    const sinks = '0\talsa_output.pci.analog-stereo\tmodule-alsa-card.c\ts16le 2ch 44100Hz\tRUNNING\n';
    const defaults = parsePactlInfoDefaults(
      'Server String: /run/user/1000/pulse/native\nDefault Sink: alsa_output.pci.analog-stereo\nDefault Source: alsa_input.pci.analog-stereo\n',
    );
    expect(defaults).to.deep.equal({ sink: 'alsa_output.pci.analog-stereo', source: 'alsa_input.pci.analog-stereo' });
    expect(parsePactlShort(sources, sinks, defaults)).to.deep.equal({
      backend: 'pulse',
      inputs: [
        {
          id: 'alsa_input.pci.analog-stereo',
          name: 'alsa_input.pci.analog-stereo',
          isDefault: true,
          source: 'alsa_input.pci.analog-stereo',
        },
      ],
      outputs: [
        {
          id: 'alsa_output.pci.analog-stereo',
          name: 'alsa_output.pci.analog-stereo',
          isDefault: true,
          source: 'alsa_output.pci.analog-stereo.monitor',
        },
      ],
    });
  });

  it('reads DirectShow audio devices of both listing styles; loopback devices count as outputs', () => {
    const five = parseDshowDevices(DSHOW_5);
    expect(five.inputs.map((device) => device.name)).to.deep.equal(['Microphone Array (Realtek(R) Audio)']);
    expect(five.inputs[0]!.source).to.match(/^@device_cm_\{33D9A762.*wave_\{8B1E9F2A/);
    expect(five.outputs.map((device) => device.name)).to.deep.equal(['Stereo Mix (Realtek(R) Audio)']);
    const four = parseDshowDevices(DSHOW_4);
    expect(four.inputs.map((device) => [device.name, device.isDefault])).to.deep.equal([['Headset Microphone (HyperX Cloud II)', false]]);
    expect(four.outputs).to.deep.equal([]);
  });

  it('puts the loopback that surely carries what the speakers play first: WASAPI loopback, then Stereo Mix, then virtual cables', () => {
    const listing = [
      '"Microphone (USB Audio)" (audio)',
      '"CABLE Output (VB-Audio Virtual Cable)" (audio)',
      '"Stereo Mix (Realtek(R) Audio)" (audio)',
      '"virtual-audio-capturer" (audio)',
    ]
      .map((line) => `[dshow @ 000001c9f8a8e2c0] ${line}`)
      .join('\n');
    const devices = parseDshowDevices(listing);
    expect(devices.outputs.map((device) => device.name)).to.deep.equal([
      'virtual-audio-capturer',
      'Stereo Mix (Realtek(R) Audio)',
      'CABLE Output (VB-Audio Virtual Cable)',
    ]);
    expect(devices.inputs.map((device) => device.name)).to.deep.equal(['Microphone (USB Audio)']);
    const mac = parseAvfoundationDevices(
      `${AVFOUNDATION}[AVFoundation indev @ 0x7f9b1c004a80] [2] Soundflower (2ch)\n[AVFoundation indev @ 0x7f9b1c004a80] [3] BlackHole 16ch\n`,
    );
    expect(mac.outputs.map((device) => device.name)).to.deep.equal(['BlackHole 16ch', 'BlackHole 2ch', 'Soundflower (2ch)']);
  });

  it('reads AVFoundation audio devices', () => {
    const devices = parseAvfoundationDevices(AVFOUNDATION);
    expect(devices.inputs.map((device) => device.source)).to.deep.equal(['MacBook Pro Microphone']);
    expect(devices.outputs.map((device) => device.source)).to.deep.equal(['BlackHole 2ch']);
  });

  it('asks pactl, falls back to the short listing, and gives nothing without pactl', async () => {
    const answers = (table: Record<string, CommandResult>): CommandRunner & { asked: string[] } => {
      const asked: string[] = [];
      const run = async (command: string, args: readonly string[]) => {
        const line = [command, ...args].join(' ');
        asked.push(line);
        return table[line];
      };
      return Object.assign(run, { asked });
    };
    const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', code: 0 });
    const linux = { platform: 'linux' as const, home: '/h', variables: {} };
    expect(await detectAudioDevices(answers({}), linux)).to.deep.equal({ inputs: [], outputs: [] });

    const json = answers({
      'pactl --format=json list sources': ok(SOURCES),
      'pactl --format=json list sinks': ok(SINKS),
      'pactl get-default-source': ok(`${DEFAULTS.source}\n`),
      'pactl get-default-sink': ok(`${DEFAULTS.sink}\n`),
    });
    const fromJson = await detectAudioDevices(json, linux);
    expect(fromJson.inputs).to.have.length(2);
    expect(fromJson.outputs[0]!.isDefault).to.equal(true);

    const old = answers({
      'pactl --format=json list sources': { stdout: '', stderr: "pactl: unrecognized option '--format=json'", code: 1 },
      'pactl --format=json list sinks': { stdout: '', stderr: "pactl: unrecognized option '--format=json'", code: 1 },
      'pactl get-default-source': { stdout: '', stderr: 'No valid command specified.', code: 1 },
      'pactl info': ok('Default Sink: sink.a\nDefault Source: source.a\n'),
      'pactl list short sources': ok(
        '1\tsource.a\tmodule-alsa-card.c\ts16le 2ch 44100Hz\tRUNNING\n2\tsink.a.monitor\tmodule-alsa-card.c\ts16le 2ch 44100Hz\tIDLE\n',
      ),
      'pactl list short sinks': ok('0\tsink.a\tmodule-alsa-card.c\ts16le 2ch 44100Hz\tRUNNING\n'),
    });
    expect(await detectAudioDevices(old, linux)).to.deep.equal({
      backend: 'pulse',
      inputs: [{ id: 'source.a', name: 'source.a', isDefault: true, source: 'source.a' }],
      outputs: [{ id: 'sink.a', name: 'sink.a', isDefault: true, source: 'sink.a.monitor' }],
    });

    const windows = answers({ 'ffmpeg.exe -hide_banner -list_devices true -f dshow -i dummy': { stdout: '', stderr: DSHOW_5, code: 1 } });
    expect((await detectAudioDevices(windows, { platform: 'win32', home: 'C:\\', variables: {} }, 'ffmpeg.exe')).inputs).to.have.length(1);
    expect(await detectAudioDevices(windows, { platform: 'win32', home: 'C:\\', variables: {} })).to.deep.equal({
      inputs: [],
      outputs: [],
    });
  });
});
