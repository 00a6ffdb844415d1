// The jobs tray in a real browser against the real service: Cancel on a running import and compression
// (nothing of theirs left in the folder or the library), a clip card titled with the clip whose finished
// card opens the clip and shows it in its folder, the tray collapsed and expanded (remembered), and, at
// 1280x720, docked under the page so that it covers neither the settings forms nor the bookmark rows.
import 'reflect-metadata';
import { expect } from 'chai';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { formatDuration } from '@keyframe/core/protocol';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi, waitForCondition, type UiSession } from '../kit/browser.js';
import { folderListing } from '../kit/folder-checksum.js';
import { importGeneratedVideo } from '../kit/imported-video.js';
import { rawVideo } from '../kit/raw-video.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { uiAddress } from './library-fixture.js';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Scrolls each element into view in turn and asserts that the tray covers none of it. */
async function expectUncovered(elements: Locator, tray: Locator, what: string): Promise<number> {
  const count = await elements.count();
  for (let index = 0; index < count; index++) {
    const element = elements.nth(index);
    if (!(await element.isVisible())) continue;
    await element.scrollIntoViewIfNeeded();
    const [box, trayBox] = [await element.boundingBox(), await tray.boundingBox()];
    expect(overlaps(box!, trayBox!), `${what} ${index} under the jobs tray`).to.equal(false);
  }
  return count;
}

const card = (page: Page, kind: string) => page.locator(`[data-testid="job-card"][data-kind="${kind}"]`);

describe('ui: jobs tray', function () {
  this.timeout(180_000);
  const under = serviceUnderTest();
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    ui = undefined;
  });

  it('cancels an import and a compression, opens a finished clip and shows it in its folder, and never covers the page', async () => {
    // Stand-ins on the service's PATH: the file picker answers with the long video, the file manager notes what it shows.
    const bin = path.join(under.data.path, 'bin');
    const sources = path.join(under.data.path, 'downloads');
    const longVideo = path.join(sources, 'long match.mkv');
    const shown = path.join(under.data.path, 'shown.txt');
    await mkdir(bin, { recursive: true });
    await mkdir(sources, { recursive: true });
    await writeFile(path.join(bin, 'zenity'), `#!/bin/sh\necho '${longVideo}'\n`, { mode: 0o755 });
    await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" >> '${shown}'\n`, { mode: 0o755 });
    const { client } = await under.connect({ PATH: `${bin}:${process.env['PATH'] ?? ''}` });
    // A slow preset: the compression is still running when Cancel is pressed (the clip is a stream copy).
    client.send('UpdateSettings', { contentFolder: under.content.path, clipPreset: 'slower', autoGenerateHighlights: false });
    await client.next('Settings');
    const [item] = await Promise.all([
      importGeneratedVideo(client, sources, 'ranked match', { seconds: 6, width: 1280, height: 720 }),
      rawVideo(longVideo),
    ]);
    for (const [index, seconds] of [1, 2, 3, 4, 5].entries()) {
      client.send('AddBookmark', {
        FilePath: item.filePath,
        ContentType: 'Session',
        Type: 'Kill',
        Time: formatDuration(seconds),
        Id: index + 1,
      });
    }
    await client.until('State', (state) => state.content[0]!.bookmarks.length === 5, 10_000);
    await client.close();
    const before = await folderListing(under.content.path);

    ui = await openUi({ url: uiAddress(under, '/library/sessions') });
    const { page } = ui;
    const tray = page.getByTestId('jobs-tray');
    await page.getByTestId('content-card').waitFor({ timeout: 15_000 });

    // Import: cancelled while the file is copied; nothing of it in the folder or the library.
    await page.getByRole('button', { name: 'Import videos' }).click();
    await card(page, 'import')
      .getByRole('button', { name: /^Cancel/ })
      .click({ timeout: 15_000 });
    await card(page, 'import').waitFor({ state: 'detached', timeout: 15_000 });
    expect(await folderListing(under.content.path)).to.deep.equal(before);
    expect(await page.getByTestId('content-card').count()).to.equal(1);

    // Compression: cancelled while ffmpeg encodes; the original alone, as it was.
    await page.getByTestId('actions-menu-button').click();
    await page.getByRole('menuitem', { name: 'Compress' }).click();
    const compression = card(page, 'compression');
    await waitForCondition(page, `document.querySelector('[data-kind="compression"] .job__percent')?.textContent !== '0%'`, {
      timeout: 30_000,
    });
    await compression.getByRole('button', { name: /^Cancel/ }).click();
    await compression.waitFor({ state: 'detached', timeout: 15_000 });
    expect(await folderListing(under.content.path)).to.deep.equal(before);
    expect(await page.getByTestId('content-card').count()).to.equal(1);

    // A clip titled by the person: its card carries that title, not the video's name.
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#/video/${encodeURIComponent(item.filePath)}`)}`);
    const track = page.getByTestId('timeline-track');
    await track.waitFor();
    const box = (await track.boundingBox())!;
    await track.click({ position: { x: box.width / 2, y: box.height / 2 } });
    await page.getByTestId('set-end').click();
    await page.getByTestId('add-segment').click();
    await page.getByTestId('clip-title').fill('Ace clutch');
    await page.getByTestId('create-clip').click();
    const clip = page.locator('[data-testid="job-card"][data-kind="clip"][data-phase="done"]');
    await clip.waitFor({ timeout: 60_000 });
    expect(await clip.locator('.job__title').innerText()).to.equal('Ace clutch');
    // Its success toast names the clip and opens the video the job made, like the card.
    const toast = page.getByRole('status').filter({ hasText: 'Clip saved' });
    expect(await toast.innerText()).to.contain('“Ace clutch”');
    const cardOpens = await clip.getByRole('link', { name: /^Open/ }).getAttribute('href');
    expect(await toast.getByRole('link', { name: 'Open' }).getAttribute('href')).to.equal(cardOpens);

    // Collapsed and expanded from the header, remembered in the browser.
    const toggle = tray.getByRole('button', { name: /^Jobs/ });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).to.equal('false');
    expect(await tray.getByTestId('job-card').count()).to.equal(0);
    expect(await page.evaluate(`localStorage.getItem('keyframe.jobsTray.collapsed')`)).to.equal('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).to.equal('true');
    await clip.waitFor();

    // At 1280x720 the tray is docked under the page: no bookmark row and no settings control lies under it.
    expect(await expectUncovered(page.getByTestId('bookmark-row'), tray, 'bookmark row')).to.equal(5);
    await ui.screenshot('jobs-tray');
    await expectNoSeriousViolations(ui.page, 'the video page with the jobs tray');
    await page.evaluate(`window.location.hash = '#/settings/recording'`);
    await page.locator('main select, main input').first().waitFor();
    expect(await expectUncovered(page.locator('main input, main select, main button'), tray, 'settings control')).to.be.greaterThan(5);

    // The finished clip: Show in folder reaches the file manager, Open shows the clip on the video page.
    await clip.getByRole('button', { name: /Show .* in folder/ }).click();
    const deadline = Date.now() + 10_000;
    let opened = '';
    while (!opened && Date.now() < deadline) {
      opened = await readFile(shown, 'utf8').catch(() => '');
      if (!opened) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const clipFolder = path.join(under.content.path, 'Clips');
    expect(opened.trim().startsWith(clipFolder), opened).to.equal(true);
    await clip.getByRole('link', { name: /^Open/ }).click();
    const page$ = page.getByTestId('video-page');
    await page$.waitFor();
    const clipPath = (await page$.getAttribute('data-file-path'))!;
    expect(path.dirname(clipPath)).to.equal(opened.trim());
    expect(clipPath.startsWith(clipFolder)).to.equal(true);
    expect(ui.consoleErrors).to.deep.equal([]);
  });
});
