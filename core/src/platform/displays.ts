// The monitors of this machine with their place on the desktop: xrandr / xdpyinfo on Linux,
// System.Windows.Forms.Screen on Windows, system_profiler on macOS. Nothing found → [].
import type { Display } from '../protocol/index.js';
import type { Environment } from './data-folders.js';
import type { CommandRunner } from './system-commands.js';

/** A display as State shows it, plus where it is on the desktop (what screen capture needs). */
export interface DetectedDisplay extends Display {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** State's `maxDisplayHeight` when no display is known. */
export const DEFAULT_MAX_DISPLAY_HEIGHT = 1080;

export async function detectDisplays(run: CommandRunner, environment: Environment): Promise<DetectedDisplay[]> {
  switch (environment.platform) {
    case 'linux':
    case 'freebsd':
    case 'openbsd': {
      if (!environment.variables.DISPLAY) return [];
      const xrandr = await run('xrandr', ['--query']);
      const fromXrandr = xrandr?.code === 0 ? parseXrandr(xrandr.stdout) : [];
      if (fromXrandr.length > 0) return fromXrandr;
      const xdpyinfo = await run('xdpyinfo', []);
      return xdpyinfo?.code === 0 ? parseXdpyinfo(xdpyinfo.stdout) : [];
    }
    case 'win32': {
      const result = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_SCREENS_SCRIPT]);
      return result?.code === 0 ? parseWindowsScreens(result.stdout) : [];
    }
    case 'darwin': {
      const result = await run('system_profiler', ['SPDisplaysDataType', '-json']);
      return result?.code === 0 ? parseMacDisplays(result.stdout) : [];
    }
    default:
      return [];
  }
}

export function maxDisplayHeight(displays: readonly DetectedDisplay[]): number {
  return displays.length === 0 ? DEFAULT_MAX_DISPLAY_HEIGHT : Math.max(...displays.map((display) => display.height));
}

export const toWireDisplay = ({ deviceName, deviceId, isPrimary, isHdr }: DetectedDisplay): Display => ({
  deviceName,
  deviceId,
  isPrimary,
  isHdr,
});

/** The display the settings name (by id, then name), else the primary one, else the first. */
export function findDisplay(displays: readonly DetectedDisplay[], wanted: Display | null | undefined): DetectedDisplay | undefined {
  if (wanted) {
    const match =
      displays.find((display) => display.deviceId === wanted.deviceId) ??
      displays.find((display) => display.deviceName === wanted.deviceName);
    if (match) return match;
  }
  return displays.find((display) => display.isPrimary) ?? displays[0];
}

/**
 * `xrandr --query`: each connected, active output (`HDMI-1 connected primary 1920x1080+0+0 …`).
 * Without a `primary` mark (Xvfb, some drivers) the first output counts as primary.
 */
export function parseXrandr(text: string): DetectedDisplay[] {
  const displays: DetectedDisplay[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^(\S+) connected (primary )?(\d+)x(\d+)\+(\d+)\+(\d+)/.exec(line);
    if (!match) continue;
    const [, name, primary, width, height, x, y] = match;
    displays.push({
      deviceName: name!,
      deviceId: name!,
      isPrimary: primary !== undefined,
      isHdr: false,
      width: Number(width),
      height: Number(height),
      x: Number(x),
      y: Number(y),
    });
  }
  return markFirstPrimary(displays);
}

/** `xdpyinfo`: the default screen's size (no outputs: one display covering the screen). */
export function parseXdpyinfo(text: string): DetectedDisplay[] {
  const defaultScreen = /default screen number:\s+(\d+)/.exec(text)?.[1] ?? '0';
  const screens = text.split(/^screen #/m).slice(1);
  const screen = screens.find((block) => block.startsWith(`${defaultScreen}:`)) ?? screens[0];
  const size = screen ? /dimensions:\s+(\d+)x(\d+) pixels/.exec(screen) : null;
  if (!size) return [];
  return [
    {
      deviceName: `screen ${defaultScreen}`,
      deviceId: `screen ${defaultScreen}`,
      isPrimary: true,
      isHdr: false,
      width: Number(size[1]),
      height: Number(size[2]),
      x: 0,
      y: 0,
    },
  ];
}

/** Bounds in desktop pixels; gdigrab addresses the desktop the same way. */
const WINDOWS_SCREENS_SCRIPT = [
  'Add-Type -AssemblyName System.Windows.Forms;',
  '@([System.Windows.Forms.Screen]::AllScreens | ForEach-Object {',
  '[pscustomobject]@{ DeviceName = $_.DeviceName; Primary = $_.Primary;',
  'X = $_.Bounds.X; Y = $_.Bounds.Y; Width = $_.Bounds.Width; Height = $_.Bounds.Height } })',
  '| ConvertTo-Json -Compress',
].join(' ');

interface WindowsScreen {
  DeviceName?: string;
  Primary?: boolean;
  X?: number;
  Y?: number;
  Width?: number;
  Height?: number;
}

/** The PowerShell script's JSON: one object, or an array of them. */
export function parseWindowsScreens(json: string): DetectedDisplay[] {
  const parsed = parseJson(json);
  const screens = (Array.isArray(parsed) ? parsed : parsed ? [parsed] : []) as WindowsScreen[];
  return markFirstPrimary(
    screens.flatMap((screen) => {
      if (!screen.DeviceName || !screen.Width || !screen.Height) return [];
      return [
        {
          deviceName: screen.DeviceName.replace(/^\\\\\.\\/, ''),
          deviceId: screen.DeviceName,
          isPrimary: screen.Primary === true,
          isHdr: false,
          width: screen.Width,
          height: screen.Height,
          x: screen.X ?? 0,
          y: screen.Y ?? 0,
        },
      ];
    }),
  );
}

interface MacDisplay {
  _name?: string;
  _spdisplays_pixels?: string;
  _spdisplays_resolution?: string;
  _spdisplays_displayID?: string;
  spdisplays_main?: string;
}

/**
 * `system_profiler SPDisplaysDataType -json`: the displays of each graphics adapter. Sizes are
 * physical pixels (what AVFoundation captures); positions are not reported, so they stay 0.
 */
export function parseMacDisplays(json: string): DetectedDisplay[] {
  const parsed = parseJson(json) as { SPDisplaysDataType?: { spdisplays_ndrvs?: MacDisplay[] }[] } | undefined;
  const displays: DetectedDisplay[] = [];
  for (const adapter of parsed?.SPDisplaysDataType ?? []) {
    for (const display of adapter.spdisplays_ndrvs ?? []) {
      const size = /(\d+)\s*x\s*(\d+)/.exec(display._spdisplays_pixels ?? display._spdisplays_resolution ?? '');
      if (!size) continue;
      const name = display._name ?? `Display ${displays.length + 1}`;
      displays.push({
        deviceName: name,
        deviceId: display._spdisplays_displayID ?? name,
        isPrimary: display.spdisplays_main === 'spdisplays_yes',
        isHdr: false,
        width: Number(size[1]),
        height: Number(size[2]),
        x: 0,
        y: 0,
      });
    }
  }
  return markFirstPrimary(displays);
}

function markFirstPrimary(displays: DetectedDisplay[]): DetectedDisplay[] {
  if (displays.length > 0 && !displays.some((display) => display.isPrimary)) displays[0]!.isPrimary = true;
  return displays;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
