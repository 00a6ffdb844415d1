// The app shell in a real browser: navigation between the pages, a ShowModal the service really
// sends (a damaged settings file at start-up), and the connection indicator across a service restart.
import 'reflect-metadata';
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi } from '../kit/browser.js';
import { ServiceProcess } from '@keyframe/integration-testkit';
import { serviceUnderTest, type ServiceUnderTest } from '../kit/service-under-test.js';
import { quickRecording, SLOW_UI_MS, startConfigured } from './shell-fixture.js';

const startService = (under: ServiceUnderTest, port?: number) =>
  ServiceProcess.start({ dataFolder: under.data.path, port, legacyPort: 'off', env: { KEYFRAME_CAPTURE: 'synthetic' } });

describe('ui: shell', function () {
  this.timeout(90_000);
  const under = serviceUnderTest();

  it('navigates between the library sections, the recording page and the settings', async () => {
    await startConfigured(under);
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await page.getByTestId('library-sessions').waitFor({ timeout: SLOW_UI_MS });
      expect(await page.getByTestId('nav-sessions').getAttribute('aria-current')).to.equal('page');
      await ui.screenshot('shell-library');
      await expectNoSeriousViolations(page, 'library, empty');

      await page.getByTestId('nav-clips').click();
      await page.getByTestId('library-clips').waitFor();
      expect(page.url()).to.match(/#\/library\/clips$/);

      await page.getByTestId('nav-recording').click();
      await page.getByTestId('recording-page').waitFor();
      expect(await page.getByTestId('nav-recording').getAttribute('aria-current')).to.equal('page');

      // Keyboard only: the navigation is made of links that take the focus and follow on Enter.
      await page.getByTestId('nav-settings').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('settings-recording').waitFor();
      await page.getByTestId('settings-tab-keybindings').click();
      await page.getByTestId('settings-keybindings').waitFor();

      // The address is the state: a reload (or a bookmark of it) opens the same page.
      await page.reload();
      await page.getByTestId('settings-keybindings').waitFor({ timeout: SLOW_UI_MS });
      // Back goes where the user came from.
      await page.goBack();
      await page.getByTestId('settings-recording').waitFor();
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('shows the dialog the service sends when the settings file was damaged', async () => {
    await writeFile(path.join(under.data.path, 'settings.json'), '[1, 2, 3]');
    // No test client: the page is the first frontend, so the notice that waited for one goes to it.
    under.service = await startService(under);
    const ui = await openUi(under.process);
    try {
      const modal = ui.page.getByTestId('show-modal');
      await modal.waitFor({ timeout: SLOW_UI_MS });
      expect(await modal.getByRole('heading').textContent()).to.equal('Settings were reset');
      expect(await modal.textContent()).to.contain('settings.json.broken-');
      await ui.screenshot('shell-show-modal');
      await expectNoSeriousViolations(ui.page, 'the settings-reset dialog');
      await modal.getByRole('button', { name: 'OK' }).click();
      await modal.waitFor({ state: 'detached' });
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('shows the connection lost while the service restarts, then connected again', async () => {
    await startConfigured(under);
    const port = Number(new URL(under.process.url).port);
    // The browser reports each refused reconnect attempt itself; those are expected here.
    const ui = await openUi(under.process, { expectedConsoleErrors: [/WebSocket connection to .* failed/] });
    try {
      const indicator = ui.page.locator('.connection-indicator');
      await ui.page.locator('.status-dot--open').waitFor({ timeout: SLOW_UI_MS });
      expect(await indicator.textContent()).to.equal('Connected');

      await under.process.stop();
      await ui.page.locator('.status-dot--closed').waitFor({ timeout: SLOW_UI_MS });
      expect(await indicator.textContent()).to.equal('Disconnected');
      await ui.page.getByText('Connection to Keyframe lost. Reconnecting…').waitFor();

      under.service = await startService(under, port);
      await ui.page.locator('.status-dot--open').waitFor({ timeout: SLOW_UI_MS });
      expect(await indicator.textContent()).to.equal('Connected');
      await ui.page.getByText('Connection to Keyframe lost. Reconnecting…').waitFor({ state: 'detached' });
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('offers a recording cut short by a crash and recovers it into the library under the game typed in', async () => {
    const { client } = await under.connect();
    client.send('UpdateSettings', quickRecording(under));
    await client.next('Settings');
    client.send('StartRecording');
    await client.next('State', (state) => state.recording !== null && state.preRecording === null, SLOW_UI_MS);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await under.process.kill();

    under.service = await startService(under);
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      const prompt = page.getByTestId('recovery-prompt');
      await prompt.waitFor({ timeout: SLOW_UI_MS });
      const file = prompt.getByTestId('recovery-file');
      expect(await file.count()).to.equal(1);
      expect(await file.textContent()).to.contain('Session Recording');
      await ui.screenshot('shell-recovery-prompt');
      await expectNoSeriousViolations(page, 'the recovery dialog');
      await file.getByRole('textbox').fill('My Game');
      await file.getByRole('button', { name: 'Recover' }).click();
      await prompt.waitFor({ state: 'detached' });
      await page.locator('[data-testid="nav-sessions"] .sidebar__count', { hasText: /^1$/ }).waitFor({ timeout: 30_000 });
      await page.getByTestId('content-card').filter({ hasText: 'My Game' }).waitFor();
      expect(await page.locator('.toast').count(), 'commands the service refused').to.equal(0);
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });
});
