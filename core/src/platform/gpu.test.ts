import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  detectGpu,
  detectGpuDeviceFiles,
  detectRenderNodes,
  parseComputeCapability,
  parseMacGraphics,
  parseWindowsControllers,
  preferredVendor,
  vendorFromName,
  vendorFromPciId,
} from './gpu.js';
import type { CommandResult, CommandRunner } from './system-commands.js';

describe('GPU detection', () => {
  let sysfs: string;
  beforeEach(async () => {
    sysfs = await mkdtemp(path.join(os.tmpdir(), 'keyframe-sysfs-'));
  });
  afterEach(() => rm(sysfs, { recursive: true, force: true }));

  /** A fake `/sys/class/drm` with one card per vendor id, plus a connector entry that is no card. */
  const cards = async (...vendors: string[]) => {
    for (const [index, vendor] of vendors.entries()) {
      await mkdir(path.join(sysfs, 'class', 'drm', `card${index}`, 'device'), { recursive: true });
      await writeFile(path.join(sysfs, 'class', 'drm', `card${index}`, 'device', 'vendor'), `${vendor}\n`);
    }
    await mkdir(path.join(sysfs, 'class', 'drm', 'card0-HDMI-A-1'), { recursive: true });
  };
  const runner = (answers: Record<string, string>): CommandRunner & { asked: string[] } => {
    const asked: string[] = [];
    const run = async (command: string): Promise<CommandResult | undefined> => {
      asked.push(command);
      return command in answers ? { stdout: answers[command]!, stderr: '', code: 0 } : undefined;
    };
    return Object.assign(run, { asked });
  };
  const linux = { platform: 'linux' as const, home: '/h', variables: {} };

  it('prefers the discrete GPU of a hybrid laptop and asks nvidia-smi for its compute capability', async () => {
    await cards('0x8086', '0x10de');
    const run = runner({ 'nvidia-smi': '8.6\n' });
    expect(await detectGpu(run, linux, { sysfsRoot: sysfs })).to.deep.equal({ vendor: 'Nvidia', computeCapability: 8.6 });
  });

  it('reports AMD over Intel, 0 without NVIDIA, and Unknown without any card', async () => {
    await cards('0x8086', '0x1002');
    const run = runner({ 'nvidia-smi': '8.6\n' });
    expect(await detectGpu(run, linux, { sysfsRoot: sysfs })).to.deep.equal({ vendor: 'AMD', computeCapability: 0 });
    expect(run.asked).to.deep.equal([]);
    expect(await detectGpu(run, linux, { sysfsRoot: path.join(sysfs, 'missing') })).to.deep.equal({
      vendor: 'Unknown',
      computeCapability: 0,
    });
  });

  it('keeps 0 when nvidia-smi is missing', async () => {
    await cards('0x10de');
    expect(await detectGpu(runner({}), linux, { sysfsRoot: sysfs })).to.deep.equal({ vendor: 'Nvidia', computeCapability: 0 });
  });

  it('reads Windows video controllers by PCI vendor id, then by name', async () => {
    const json = JSON.stringify([
      { Name: 'Intel(R) UHD Graphics 630', AdapterCompatibility: 'Intel Corporation', PNPDeviceID: 'PCI\\VEN_8086&DEV_3E9B&SUBSYS_' },
      { Name: 'NVIDIA GeForce RTX 3070', AdapterCompatibility: 'NVIDIA', PNPDeviceID: 'PCI\\VEN_10DE&DEV_2484&SUBSYS_' },
      {
        Name: 'Microsoft Basic Display Adapter',
        AdapterCompatibility: '(Standard display types)',
        PNPDeviceID: 'ROOT\\BASICDISPLAY\\0000',
      },
    ]);
    expect(parseWindowsControllers(json)).to.deep.equal(['Intel', 'Nvidia']);
    expect(parseWindowsControllers(JSON.stringify({ Name: 'AMD Radeon RX 6800', PNPDeviceID: '' }))).to.deep.equal(['AMD']);
    const run = runner({ 'powershell.exe': json, 'nvidia-smi': '8.6\n' });
    expect(await detectGpu(run, { platform: 'win32', home: 'C:\\', variables: {} })).to.deep.equal({
      vendor: 'Nvidia',
      computeCapability: 8.6,
    });
  });

  it('reads macOS adapters; Apple silicon is none of the three vendors', () => {
    expect(
      parseMacGraphics(JSON.stringify({ SPDisplaysDataType: [{ sppci_model: 'Apple M2', spdisplays_vendor: 'sppci_vendor_Apple' }] })),
    ).to.deep.equal([]);
    expect(
      parseMacGraphics(
        JSON.stringify({
          SPDisplaysDataType: [
            { sppci_model: 'Intel UHD Graphics 630', spdisplays_vendor: 'sppci_vendor_intel' },
            { sppci_model: 'AMD Radeon Pro 5500M', spdisplays_vendor: 'sppci_vendor_amd' },
          ],
        }),
      ),
    ).to.deep.equal(['Intel', 'AMD']);
  });

  it('lists the render nodes VAAPI can open, in number order, and none without a dri folder; and whether the NVIDIA driver is loaded', async () => {
    const dev = await mkdtemp(path.join(os.tmpdir(), 'keyframe-dev-'));
    try {
      await mkdir(path.join(dev, 'dri'));
      for (const name of ['renderD129', 'card0', 'renderD128', 'by-path']) await writeFile(path.join(dev, 'dri', name), '');
      expect(await detectRenderNodes(dev)).to.deep.equal([path.join(dev, 'dri', 'renderD128'), path.join(dev, 'dri', 'renderD129')]);
      expect(await detectRenderNodes(path.join(dev, 'missing'))).to.deep.equal([]);
      expect(await detectGpuDeviceFiles(dev)).to.deep.include({ nvidiaControl: false });
      await writeFile(path.join(dev, 'nvidiactl'), '');
      expect(await detectGpuDeviceFiles(dev)).to.deep.equal({
        renderNodes: [path.join(dev, 'dri', 'renderD128'), path.join(dev, 'dri', 'renderD129')],
        nvidiaControl: true,
      });
    } finally {
      await rm(dev, { recursive: true, force: true });
    }
  });

  it('maps ids, names and nvidia-smi output', () => {
    expect([vendorFromPciId('0x10de'), vendorFromPciId('0x1002\n'), vendorFromPciId('0x8086'), vendorFromPciId('0x1af4')]).to.deep.equal([
      'Nvidia',
      'AMD',
      'Intel',
      'Unknown',
    ]);
    expect([
      vendorFromName('NVIDIA GeForce GTX 1080'),
      vendorFromName('Radeon RX 580'),
      vendorFromName('Intel(R) Arc(TM) A770'),
      vendorFromName('llvmpipe'),
    ]).to.deep.equal(['Nvidia', 'AMD', 'Intel', 'Unknown']);
    expect(preferredVendor(['Intel', 'AMD', 'Nvidia'])).to.equal('Nvidia');
    expect(preferredVendor([])).to.equal('Unknown');
    expect(parseComputeCapability('7.5\n8.9\n')).to.equal(8.9);
    expect(parseComputeCapability('[N/A]\n')).to.equal(0);
  });
});
