// The Recording page against the real service and its synthetic capture: start, watch the status,
// stop, and find the session in the library.
import 'reflect-metadata';
import { expect } from 'chai';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi } from '../kit/browser.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { acknowledgeSlowEncodeWarnings, quickRecording, SLOW_UI_MS, startConfigured } from './shell-fixture.js';

describe('ui: recording page', function () {
  this.timeout(90_000);
  const under = serviceUnderTest();

  it('starts a recording, shows it running with its elapsed time, stops it, and the session appears', async () => {
    await startConfigured(under);
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await acknowledgeSlowEncodeWarnings(page);
      await page.getByTestId('nav-recording').click();
      const status = page.getByTestId('recording-status');
      await page.locator('[data-testid="recording-status"][data-phase="idle"]').waitFor({ timeout: SLOW_UI_MS });
      expect(await page.getByTestId('toggle-preview').isDisabled()).to.equal(true);
      // Checked before recording: the check's work in the page could make the encode fall behind on a busy machine.
      await expectNoSeriousViolations(page, 'recording page');

      await page.getByTestId('start-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="recording"]').waitFor({ timeout: SLOW_UI_MS });
      expect(await page.getByTestId('recording-game').textContent()).to.equal('Manual Recording');
      // What really records: the synthetic capture, encoded by x264 on this machine.
      expect(await page.getByTestId('recording-capture').textContent()).to.equal('Test pattern → H.264 (x264, CPU)');
      // The clock runs: it reads a later time a little after.
      const elapsed = status.locator('time.elapsed');
      const first = (await elapsed.textContent()) ?? '';
      await elapsed.filter({ hasNotText: first }).waitFor({ timeout: SLOW_UI_MS });
      expect(await page.locator('.sidebar__live').isVisible()).to.equal(true);
      await ui.screenshot('recording-running');

      await page.getByTestId('stop-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="idle"]').waitFor({ timeout: SLOW_UI_MS });
      await page.locator('[data-testid="nav-sessions"] .sidebar__count', { hasText: /^1$/ }).waitFor({ timeout: SLOW_UI_MS });
      await page.getByTestId('nav-sessions').click();
      await page.getByTestId('library-sessions').waitFor();
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('shows the live preview while recording and saves the replay buffer in Hybrid mode', async () => {
    await startConfigured(under, { ...quickRecording(under), recordingMode: 'Hybrid', replayBufferDuration: 2 });
    const ui = await openUi(under.process, { viewport: { width: 1600, height: 900 } });
    try {
      const { page } = ui;
      await acknowledgeSlowEncodeWarnings(page);
      await page.getByTestId('nav-recording').click();
      await page.getByTestId('start-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="recording"]').waitFor({ timeout: SLOW_UI_MS });

      await page.getByTestId('toggle-preview').click();
      await page.getByTestId('preview-frame').waitFor({ timeout: SLOW_UI_MS });
      expect(await page.getByTestId('preview-frame').getAttribute('src')).to.match(/^data:image\/jpeg;base64,\/9j\//);
      await ui.screenshot('recording-preview');
      await page.getByTestId('toggle-preview').click();
      await page.getByTestId('preview-frame').waitFor({ state: 'detached' });

      // Let the buffer fill a little before saving it.
      await page.waitForTimeout(2500);
      await page.getByTestId('save-replay').click();
      await page.getByRole('status').filter({ hasText: 'Replay saved' }).waitFor({ timeout: SLOW_UI_MS });
      await page.getByTestId('stop-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="idle"]').waitFor({ timeout: SLOW_UI_MS });
      await page.locator('[data-testid="nav-buffer"] .sidebar__count', { hasText: /^1$/ }).waitFor({ timeout: SLOW_UI_MS });
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });
});
