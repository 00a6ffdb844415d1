// Which graphics vendor this machine records with (PCI vendor ids on Linux, the video controllers
// on Windows, system_profiler on macOS), and an NVIDIA GPU's compute capability.
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { GPU_VENDORS } from '../protocol/index.js';
import type { Environment } from './data-folders.js';
import type { CommandRunner } from './system-commands.js';

export type GpuVendor = (typeof GPU_VENDORS)[number];

export interface GpuInfo {
  vendor: GpuVendor;
  /** NVIDIA only (`8.6` for an RTX 30xx); 0 otherwise or when nvidia-smi is missing. */
  computeCapability: number;
}

export interface GpuDetectionOptions {
  /** Where `class/drm` is looked up on Linux; tests point it at a fake tree. */
  sysfsRoot?: string;
}

const PCI_VENDORS: Record<string, GpuVendor> = { '0x10de': 'Nvidia', '0x1002': 'AMD', '0x8086': 'Intel' };

/** A discrete GPU is the one to encode with: NVIDIA is always one, AMD usually, Intel rarely. */
export const VENDOR_PREFERENCE: readonly GpuVendor[] = ['Nvidia', 'AMD', 'Intel'];

export async function detectGpu(run: CommandRunner, environment: Environment, options: GpuDetectionOptions = {}): Promise<GpuInfo> {
  let vendors: GpuVendor[] = [];
  if (environment.platform === 'win32') {
    const result = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_CONTROLLERS_SCRIPT]);
    vendors = result?.code === 0 ? parseWindowsControllers(result.stdout) : [];
  } else if (environment.platform === 'darwin') {
    const result = await run('system_profiler', ['SPDisplaysDataType', '-json']);
    vendors = result?.code === 0 ? parseMacGraphics(result.stdout) : [];
  } else {
    vendors = await pciDisplayVendors(options.sysfsRoot ?? '/sys');
  }
  const vendor = preferredVendor(vendors);
  let computeCapability = 0;
  if (vendor === 'Nvidia') {
    const result = await run('nvidia-smi', ['--query-gpu=compute_cap', '--format=csv,noheader']);
    computeCapability = result?.code === 0 ? parseComputeCapability(result.stdout) : 0;
  }
  return { vendor, computeCapability };
}

export function preferredVendor(vendors: readonly GpuVendor[]): GpuVendor {
  return VENDOR_PREFERENCE.find((vendor) => vendors.includes(vendor)) ?? 'Unknown';
}

export const vendorFromPciId = (id: string): GpuVendor => PCI_VENDORS[id.trim().toLowerCase()] ?? 'Unknown';

/** From a marketing or driver name: `NVIDIA GeForce RTX 3070`, `AMD Radeon RX 6800`, `Intel(R) UHD Graphics 630`. */
export function vendorFromName(name: string): GpuVendor {
  if (/nvidia|geforce|quadro/i.test(name)) return 'Nvidia';
  if (/\bamd\b|radeon|advanced micro devices|\bati\b/i.test(name)) return 'AMD';
  if (/intel/i.test(name)) return 'Intel';
  return 'Unknown';
}

/** `nvidia-smi --query-gpu=compute_cap` prints one line per GPU; the best one records. */
export function parseComputeCapability(text: string): number {
  const values = text
    .split(/\r?\n/)
    .map((line) => Number.parseFloat(line.trim()))
    .filter((value) => Number.isFinite(value) && value > 0);
  return values.length === 0 ? 0 : Math.max(...values);
}

/** `card0`, `card1` … (not the connector entries such as `card0-HDMI-A-1`). */
async function pciDisplayVendors(sysfsRoot: string): Promise<GpuVendor[]> {
  const drm = path.join(sysfsRoot, 'class', 'drm');
  const cards = (await readdir(drm).catch(() => [] as string[])).filter((name) => /^card\d+$/.test(name));
  const vendors = await Promise.all(
    cards.map((card) => readFile(path.join(drm, card, 'device', 'vendor'), 'utf8').then(vendorFromPciId, () => 'Unknown' as const)),
  );
  return vendors.filter((vendor) => vendor !== 'Unknown');
}

/** Linux render nodes (`/dev/dri/renderD128` …) a VAAPI encode can open, in number order; none where there is no `dri` folder. */
/** The device files a hardware encoder opens on Linux: render nodes (VAAPI, Quick Sync, AMF) and NVIDIA's control device (NVENC). */
export interface GpuDeviceFiles {
  renderNodes: readonly string[];
  nvidiaControl: boolean;
}

export async function detectGpuDeviceFiles(devRoot = '/dev'): Promise<GpuDeviceFiles> {
  const [renderNodes, nvidiaControl] = await Promise.all([
    detectRenderNodes(devRoot),
    access(path.join(devRoot, 'nvidiactl')).then(
      () => true,
      () => false,
    ),
  ]);
  return { renderNodes, nvidiaControl };
}

export async function detectRenderNodes(devRoot = '/dev'): Promise<string[]> {
  const dri = path.join(devRoot, 'dri');
  const names = (await readdir(dri).catch(() => [] as string[])).filter((name) => /^renderD\d+$/.test(name));
  const number = (name: string) => Number(name.slice('renderD'.length));
  return names.sort((a, b) => number(a) - number(b)).map((name) => path.join(dri, name));
}

const WINDOWS_CONTROLLERS_SCRIPT =
  '@(Get-CimInstance Win32_VideoController | Select-Object Name, AdapterCompatibility, PNPDeviceID) | ConvertTo-Json -Compress';

interface WindowsController {
  Name?: string;
  AdapterCompatibility?: string;
  PNPDeviceID?: string;
}

/** `PCI\VEN_10DE&DEV_…` names the vendor exactly; the names are the fallback. */
export function parseWindowsControllers(json: string): GpuVendor[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const controllers = (Array.isArray(parsed) ? parsed : parsed ? [parsed] : []) as WindowsController[];
  return controllers
    .map((controller) => {
      const pciId = /VEN_([0-9A-F]{4})/i.exec(controller.PNPDeviceID ?? '')?.[1];
      const fromId = pciId ? vendorFromPciId(`0x${pciId}`) : 'Unknown';
      return fromId !== 'Unknown' ? fromId : vendorFromName(`${controller.AdapterCompatibility ?? ''} ${controller.Name ?? ''}`);
    })
    .filter((vendor) => vendor !== 'Unknown');
}

interface MacAdapter {
  sppci_model?: string;
  spdisplays_vendor?: string;
  sppci_vendor?: string;
}

/** Apple silicon reports vendor Apple, which is none of the three: `Unknown` is the honest answer. */
export function parseMacGraphics(json: string): GpuVendor[] {
  let parsed: { SPDisplaysDataType?: MacAdapter[] } | undefined;
  try {
    parsed = JSON.parse(json) as typeof parsed;
  } catch {
    return [];
  }
  return (parsed?.SPDisplaysDataType ?? [])
    .map((adapter) => {
      const vendorId = /0x[0-9a-f]{4}/i.exec(adapter.spdisplays_vendor ?? '')?.[0];
      const fromId = vendorId ? vendorFromPciId(vendorId) : 'Unknown';
      return fromId !== 'Unknown'
        ? fromId
        : vendorFromName(`${adapter.spdisplays_vendor ?? ''} ${adapter.sppci_vendor ?? ''} ${adapter.sppci_model ?? ''}`);
    })
    .filter((vendor) => vendor !== 'Unknown');
}
