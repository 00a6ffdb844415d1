// The account and audio flows of the UI against the real service: signing in with the identity
// provider's tokens (a local platform issues them), uploading a library video to the local tus platform
// and cancelling it from its job card, signing out; and choosing the audio devices of a private
// PulseAudio server, their volume and the separate tracks, which reach the service's settings.
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Settings } from '@keyframe/core/protocol';
import { createTempFolder } from '@keyframe/integration-testkit';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi, type UiSession } from '../kit/browser.js';
import { startPulseServer } from '../kit/pulse-server.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { importUploadableVideo, TusPlatform, type PlatformTokens } from '../kit/tus-platform.js';
import { onPath } from '../kit/virtual-desktop.js';
import { uiAddress } from './library-fixture.js';
import { SLOW_UI_MS } from './shell-fixture.js';

/** Polls `read` until `done` holds of what it returns; throws with `what` after SLOW_UI_MS. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + SLOW_UI_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${SLOW_UI_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('ui: account and audio flows', function () {
  this.timeout(90_000);
  const under = serviceUnderTest();
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    ui = undefined;
  });

  const readJson = <T>(file: string) =>
    readFile(file, 'utf8').then(
      (text) => JSON.parse(text) as T,
      () => undefined,
    );

  it('signs in, uploads a video with progress, cancels it from its card, and signs out', async () => {
    const platform = await TusPlatform.start();
    try {
      const { client } = await under.connect(platform.environment({ KEYFRAME_UPLOAD_CHUNK_BYTES: String(64 * 1024) }));
      const item = await importUploadableVideo(client, under.data.path, under.content.path);
      await client.close();
      const tokensFile = path.join(under.data.path, 'account', 'tokens.json');

      ui = await openUi({ url: uiAddress(under, '/settings/account') });
      const { page } = ui;
      const tokens = platform.issueTokens();
      await page.getByLabel('Access token').fill(tokens.accessToken);
      await page.getByLabel('Refresh token').fill(tokens.refreshToken);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('status').filter({ hasText: 'Signed in.' }).waitFor({ timeout: SLOW_UI_MS });
      const stored = await eventually(
        () => readJson<PlatformTokens>(tokensFile),
        (value) => value !== undefined,
        'no tokens stored',
      );
      expect(stored).to.deep.equal(tokens);
      expect(await page.getByLabel('Access token').inputValue(), 'the fields are cleared').to.equal('');

      // Three parts arrive, then the platform holds the fourth: the upload stays under way until cancelled.
      platform.holdPatchesAfter(3);
      await page.goto(uiAddress(under, '/library/sessions'));
      const card = page.locator(`[data-testid="content-card"][data-file-path="${item.filePath}"]`);
      await card.getByTestId('actions-menu-button').click();
      await page.getByRole('menuitem', { name: 'Upload…' }).click();
      const dialog = page.getByTestId('upload-dialog');
      await dialog.getByLabel('Title').fill('Clutch round');
      await dialog.getByTestId('dialog-confirm').click();
      await platform.heldPatch();

      const job = page.locator('[data-testid="job-card"][data-kind="upload"]');
      await job.filter({ hasText: 'Clutch round' }).waitFor({ timeout: SLOW_UI_MS });
      const progress = job.getByRole('progressbar');
      await eventually(
        () => progress.getAttribute('value').then(Number),
        (value) => value > 0,
        'no upload progress shown',
      );
      expect(await job.getAttribute('data-phase')).to.equal('running');
      await ui.screenshot('flows-upload-running');
      await expectNoSeriousViolations(ui.page, 'an upload under way');

      await job.getByRole('button', { name: 'Cancel' }).click();
      await page.locator('[data-testid="job-card"][data-kind="upload"][data-phase="failed"]').waitFor({ timeout: SLOW_UI_MS });
      expect(await job.getByRole('alert').textContent()).to.equal('Upload cancelled');
      const [id] = platform.uploadIds;
      expect(platform.tusRequests.filter((request) => request.method === 'DELETE')).to.deep.equal([
        { method: 'DELETE', uploadId: id, status: 204 },
      ]);
      expect(await platform.storedUpload(id!), 'nothing completed on the platform').to.equal(undefined);

      await page.goto(uiAddress(under, '/settings/account'));
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('status').filter({ hasText: 'Signed out.' }).waitFor({ timeout: SLOW_UI_MS });
      await eventually(
        async () => existsSync(tokensFile),
        (exists) => !exists,
        'the tokens file is still there',
      );
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await platform.stop();
    }
  });

  it('chooses a microphone and a speaker, a volume and separate tracks: the service keeps them, a reload shows them', async function () {
    const pulseaudio = onPath('pulseaudio');
    if (process.platform !== 'linux' || !pulseaudio || !onPath('pactl')) return this.skip();
    const folder = await createTempFolder('keyframe-pulse-');
    const pulse = await startPulseServer(pulseaudio, folder.path, { speakersHz: 1000, microphoneHz: 600 });
    try {
      const { client } = await under.connect({ PULSE_SERVER: pulse.address });
      const detected = await client.until('State', (state) => state.inputDevices.length > 0 && state.outputDevices.length > 1, SLOW_UI_MS);
      await client.close();
      const idOf = (devices: { id: string; name: string }[], name: string) => devices.find((device) => device.name === name)!.id;
      const [microphoneId, voiceId] = [idOf(detected.inputDevices, 'Microphone'), idOf(detected.outputDevices, 'Voice')];
      const saved = (done: (settings: Settings) => boolean, what: string) =>
        eventually(
          () => readJson<Settings>(path.join(under.data.path, 'settings.json')),
          (value): value is Settings => value !== undefined && done(value),
          what,
        );

      ui = await openUi({ url: uiAddress(under, '/settings/recording') });
      const { page } = ui;
      const deviceRow = (name: string) => page.locator('.device-list__item').filter({ has: page.getByRole('switch', { name }) });
      const microphone = deviceRow('Microphone (default)');
      await microphone.waitFor({ timeout: SLOW_UI_MS });
      expect(await page.getByRole('switch', { name: 'Speakers (default)' }).getAttribute('aria-checked')).to.equal('false');

      await microphone.getByRole('switch').click();
      await saved((settings) => settings.inputDevices.length === 1, 'the microphone is not in the settings');
      // The volume from the keyboard: four quick steps of 5 % down, each sent when the key is released.
      await microphone.getByRole('slider', { name: 'Volume' }).focus();
      for (let press = 0; press < 4; press++) await page.keyboard.press('ArrowLeft');
      await saved((settings) => Math.round((settings.inputDevices[0]?.volume ?? 0) * 100) === 80, 'no volume 80 %');
      await microphone.locator('output').filter({ hasText: '80 %' }).waitFor({ timeout: SLOW_UI_MS });
      await deviceRow('Voice').getByRole('switch').click();
      await page.getByTestId('setting-enableSeparateAudioTracks').click();
      const chosen = await saved(
        (settings) => settings.enableSeparateAudioTracks && settings.outputDevices.length === 1 && settings.inputDevices[0]?.volume === 0.8,
        'the devices, volume and separate tracks are not in the settings',
      );
      expect(chosen?.inputDevices).to.deep.equal([{ id: microphoneId, name: 'Microphone', volume: 0.8 }]);
      expect(chosen?.outputDevices).to.deep.equal([{ id: voiceId, name: 'Voice', volume: 1 }]);
      await page.getByRole('heading', { name: 'Audio' }).scrollIntoViewIfNeeded();
      await ui.screenshot('flows-audio-devices');
      await expectNoSeriousViolations(ui.page, 'settings, audio devices');

      // Still so after a reload; switching the microphone off removes it (and its volume).
      await page.reload();
      await microphone.waitFor({ timeout: SLOW_UI_MS });
      expect(await microphone.locator('output').textContent()).to.equal('80 %');
      expect(await deviceRow('Voice').getByRole('switch').getAttribute('aria-checked')).to.equal('true');
      await microphone.getByRole('switch').click();
      await saved((settings) => settings.inputDevices.length === 0, 'the microphone is still in the settings');
      expect(await microphone.getByRole('slider').count()).to.equal(0);
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await pulse.stop();
      await folder.remove();
    }
  });
});
