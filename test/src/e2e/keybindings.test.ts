// Global hotkeys where none can work (no X11 display, as on a server or in CI): the service runs
// normally, and a frontend that sets hotkeys up is told why they will not fire, once. Key presses
// themselves are driven into the real keybinding service by its unit tests (a fake hook).
import 'reflect-metadata';
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { serviceUnderTest } from '../kit/service-under-test.js';

describe('keybindings without a display', function () {
  const under = serviceUnderTest();

  it('keeps serving, logs why hotkeys are off, and shows it once when keybindings are changed', async () => {
    const { client } = await under.connect({ DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
    await client.next('ReleaseNotes');
    expect(client.all('ShowModal')).to.deep.equal([]);

    const rebound = (keys: number[]) =>
      (client.latest('Settings')?.keybindings ?? []).map((binding) =>
        binding.action === 'CreateBookmark' ? { ...binding, keys } : binding,
      );
    client.send('UpdateSettings', { keybindings: rebound([0x11, 0x42]) });
    const settings = await client.next('Settings');
    expect(settings.keybindings.find((binding) => binding.action === 'CreateBookmark')?.keys).to.deep.equal([0x11, 0x42]);
    const modal = await client.until('ShowModal', () => true);
    expect(modal).to.deep.include({ title: 'Hotkeys are not available', type: 'warning' });
    expect(modal.description).to.include('DISPLAY is not set');

    client.send('UpdateSettings', { keybindings: rebound([0x12, 0x42]) });
    await client.next('Settings');
    client.send('StartRecording');
    await client.next('State', (state) => state.recording !== null, 20_000);
    client.send('StopRecording');
    await client.next('State', (state) => state.recording === null && state.preRecording === null, 20_000);
    expect(client.all('ShowModal')).to.have.length(1);

    const log = await readFile(path.join(under.data.path, 'logs', 'keyframe.log'), 'utf8');
    expect(log).to.match(/global hotkeys are unavailable.*DISPLAY is not set/);
    expect(client.schemaViolations).to.deep.equal([]);
  });
});
