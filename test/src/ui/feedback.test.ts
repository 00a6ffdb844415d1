// Feedback where a gamer looks, against the real service and its synthetic capture: a replay saved from the
// Recording page says so in a toast whose Open leads to the new item's video page; an item without a title
// reads "<game> — <date>"; a refused command reads what failed, in words, with the service's reason.
import 'reflect-metadata';
import { expect } from 'chai';
import { rm } from 'node:fs/promises';
import { Commands } from '@keyframe/core/protocol';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi } from '../kit/browser.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { acknowledgeSlowEncodeWarnings, quickRecording, SLOW_UI_MS, startConfigured } from './shell-fixture.js';

describe('ui: feedback', function () {
  this.timeout(90_000);
  const under = serviceUnderTest();

  it('opens a saved replay from its toast, titles it "<game> — <date>", and words a refusal', async () => {
    // A light encode: what is shown here does not depend on the picture.
    await startConfigured(under, { ...quickRecording(under), frameRate: 15, recordingMode: 'Buffer', replayBufferDuration: 2 });
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await acknowledgeSlowEncodeWarnings(page);
      await page.getByTestId('nav-recording').click();
      await page.getByTestId('start-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="recording"]').waitFor({ timeout: SLOW_UI_MS });
      // Let the buffer fill a little before saving it.
      await page.waitForTimeout(2500);
      await page.getByTestId('save-replay').click();

      const saved = page.getByRole('status').filter({ hasText: 'Replay saved' });
      const open = saved.getByRole('link', { name: 'Open' });
      await open.waitFor({ timeout: SLOW_UI_MS });
      // Top right, clear of the jobs tray at the bottom left.
      const box = (await saved.boundingBox())!;
      expect(box.y + box.height, 'toast bottom').to.be.below(360);
      expect(box.x, 'toast left').to.be.above(1280 / 2);
      await ui.screenshot('feedback-replay-saved');
      await open.click();

      const videoPage = page.getByTestId('video-page');
      await videoPage.waitFor({ timeout: SLOW_UI_MS });
      const filePath = (await videoPage.getAttribute('data-file-path')) ?? '';
      expect(filePath).to.contain('/Replay Buffers/Manual Recording/');
      // The replay has no title: it reads as its game and the moment of the save (its file name), in the page's locale, short.
      const stamp = /(\d{4})-(\d{2})-(\d{2})_(\d{2})-(\d{2})-(\d{2})\.mp4$/.exec(filePath)!.slice(1).map(Number);
      const date = await page.evaluate(
        `new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(${stamp[0]}, ${stamp[1]! - 1}, ${stamp[2]}, ${stamp[3]}, ${stamp[4]}, ${stamp[5]}))`,
      );
      const title = `Manual Recording — ${String(date)}`;
      expect(await page.getByTestId('video-title').innerText()).to.equal(title);

      await page.getByTestId('nav-recording').click();
      await page.getByTestId('stop-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="idle"]').waitFor({ timeout: SLOW_UI_MS });
      await page.getByTestId('nav-buffer').click();
      const card = page.locator(`[data-testid="content-card"][data-title="${title}"]`);
      await card.waitFor({ timeout: SLOW_UI_MS });

      // The file goes behind the service's back; showing it in its folder is refused.
      await rm(filePath);
      await card.getByTestId('actions-menu-button').click();
      await page.getByRole('menuitem', { name: 'Open folder' }).click();
      const refused = page.getByRole('alert').filter({ hasText: "Couldn't open the folder" });
      await refused.waitFor({ timeout: SLOW_UI_MS });
      const text = await refused.innerText();
      expect(text).to.contain(filePath.slice(filePath.lastIndexOf('/') + 1));
      for (const method of Object.keys(Commands)) expect(text, 'no method name in the toast').not.to.contain(method);
      await ui.screenshot('feedback-refusal');
      await expectNoSeriousViolations(page, 'a toast of a refused command');
      await refused.getByRole('button', { name: /^Dismiss/ }).click();
      await refused.waitFor({ state: 'detached' });
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });
});
