// What to install or enable when the service finds no sound device, in the words of the user's system.
// The service lists devices with pactl (PulseAudio, PipeWire's pulse server) on Linux, DirectShow on
// Windows, AVFoundation on macOS (docs/desktop-sound.md), and reports an ffmpeg without that sound
// input in State's capture engine (core/src/capabilities/capture-engine-report.ts).
import type { State } from '@keyframe/core/protocol';

export type DesktopSystem = 'linux' | 'windows' | 'macos' | 'other';

/**
 * The system the service runs on. The UI is served on loopback only (docs/security.md), so the browser
 * (or the desktop app's window) runs on the same machine and its user agent names that system.
 */
export function desktopSystem(userAgent: string = navigator.userAgent): DesktopSystem {
  if (/Windows/.test(userAgent)) return 'windows';
  if (/Macintosh|Mac OS X/.test(userAgent)) return 'macos';
  if (/Linux|X11|BSD/.test(userAgent)) return 'linux';
  return 'other';
}

export interface AudioDeviceAdvice {
  /** For the whole audio section: no sound system answered, or this ffmpeg cannot record sound. */
  system: string[];
  /** Under an empty microphone list. */
  inputDevices?: string;
  /** Under an empty speaker list. */
  outputDevices?: string;
}

const NO_SOUND_SYSTEM =
  'Keyframe found no sound system: it lists microphones and speakers through PulseAudio, or the PulseAudio server of PipeWire ' +
  '(pipewire-pulse), with the pactl tool. Install it (Debian, Ubuntu: sudo apt install pulseaudio-utils) and check that ' +
  '“pactl info” answers in your desktop session.';

const EMPTY_LIST_ADVICE: Record<DesktopSystem, { inputDevices: string; outputDevices: string }> = {
  linux: {
    inputDevices: 'PulseAudio lists no microphone: plug one in, or check that it is not switched off in your sound settings (pavucontrol).',
    outputDevices: 'PulseAudio lists no speakers or headphones: check the output device in your sound settings (pavucontrol).',
  },
  windows: {
    inputDevices:
      'Plug in a microphone, enable it in Settings › System › Sound (or the Recording tab of the Sound control panel), ' +
      'and let desktop apps use it in Settings › Privacy & security › Microphone.',
    outputDevices:
      'To record what your speakers play, enable Stereo Mix in the Recording tab of the Sound control panel ' +
      '(right-click, Show Disabled Devices, Enable), or install a loopback device such as virtual-audio-capturer or VB-CABLE.',
  },
  macos: {
    inputDevices:
      'Allow Keyframe (or the terminal that started it) to use the microphone in System Settings › Privacy & Security › Microphone, ' +
      'then restart Keyframe.',
    outputDevices:
      'macOS cannot record what plays without a virtual device: install one such as BlackHole and choose it as the output ' +
      '(or a Multi-Output Device with your speakers, to keep hearing the game).',
  },
  other: {
    inputDevices: 'Plug in a microphone, or enable it in the sound settings of your system.',
    outputDevices: 'Enable a device that records what your speakers play in the sound settings of your system.',
  },
};

/** The capture engine's gap that keeps sound from being recorded on any system: its `missing` names a sound input. */
const SOUND_INPUT_MISSING = /PulseAudio|DirectShow|AVFoundation/;

/** Advice for the audio section: empty when both lists have devices and the capture engine can record them. */
export function audioDeviceAdvice(
  state: Pick<State, 'inputDevices' | 'outputDevices' | 'captureEngine'>,
  system: DesktopSystem,
): AudioDeviceAdvice {
  const soundInputMissing = state.captureEngine?.missing.find((gap) => SOUND_INPUT_MISSING.test(gap));
  const fix = state.captureEngine?.fix;
  const engine = soundInputMissing
    ? [`The ffmpeg Keyframe uses has ${soundInputMissing}: it records no sound.${fix ? ` To record sound, ${fix}.` : ''}`]
    : [];
  const noDevices = state.inputDevices.length === 0 && state.outputDevices.length === 0;
  if (system === 'linux' && noDevices) return { system: [NO_SOUND_SYSTEM, ...engine] };
  return {
    system: engine,
    inputDevices: state.inputDevices.length === 0 ? EMPTY_LIST_ADVICE[system].inputDevices : undefined,
    outputDevices: state.outputDevices.length === 0 ? EMPTY_LIST_ADVICE[system].outputDevices : undefined,
  };
}
