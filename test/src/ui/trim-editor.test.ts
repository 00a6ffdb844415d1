// The video page's trim editor in a real browser against the real service, on one recorded session
// (30 fps, as the fixture records): handles dragged with the mouse, zoom and its time scale, frame
// steps at the file's frame rate, the editor keys, frames shown while hovering (one request at a
// time), and a range trimmed to the second whose clip lasts that long (read with ffprobe).
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import type { ContentItem } from '@keyframe/core/protocol';
import type { Page } from 'playwright-core';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi, waitForCondition, type UiSession } from '../kit/browser.js';
import { ffprobePath } from '../kit/processes.js';
import { ServiceUnderTest } from '../kit/service-under-test.js';
import { recordLibrary, sessionsOf, uiAddress } from './library-fixture.js';

const FPS = 30;

async function waitForPlayerAt(page: Page, seconds: number, tolerance = 0.01): Promise<void> {
  await waitForCondition(
    page,
    `(() => {
      const video = document.querySelector('[data-testid="video-player"]');
      return !video.seeking && Math.abs(video.currentTime - ${seconds}) <= ${tolerance};
    })()`,
    { timeout: 10000 },
  );
}

/** Nothing focused: keys go to the page. */
async function blur(page: Page): Promise<void> {
  await page.evaluate(`document.activeElement?.blur()`);
}

async function handleSeconds(page: Page, testId: string): Promise<number> {
  return Number(await page.getByTestId(testId).getAttribute('aria-valuenow'));
}

async function centreOf(page: Page, testId: string): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId(testId).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function dragTo(page: Page, from: { x: number; y: number }, toX: number): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + toX) / 2, from.y, { steps: 4 });
  await page.mouse.move(toX, from.y, { steps: 4 });
  await page.mouse.up();
}

/** The x on the track of `seconds`, at the current zoom and scroll. */
async function trackX(page: Page, seconds: number, duration: number): Promise<number> {
  const box = (await page.getByTestId('timeline-track').boundingBox())!;
  return box.x + (box.width * seconds) / duration;
}

function probeDuration(file: string): Promise<number> {
  return new Promise((resolve, reject) =>
    execFile(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], (error, stdout) =>
      error ? reject(error) : resolve(Number(stdout.trim())),
    ),
  );
}

describe('ui: trim editor', function () {
  this.timeout(120000);
  const under = new ServiceUnderTest();
  let ui: UiSession;
  let item: ContentItem;
  let duration: number;
  let page: Page;

  before(async () => {
    await under.prepare();
    const state = await recordLibrary(under, [{ seconds: 5, bookmarks: [{ type: 'Kill', atSeconds: 1 }] }]);
    item = sessionsOf(state)[0]!;
    ui = await openUi({ url: uiAddress(under, `/video/${encodeURIComponent(item.filePath)}`) });
    page = ui.page;
    await waitForCondition(page, `document.querySelector('[data-testid="video-player"]')?.readyState >= 1`, { timeout: 15000 });
    duration = (await page.evaluate(`document.querySelector('[data-testid="video-player"]').duration`)) as number;
  });
  after(async () => {
    await ui?.close();
    await under.dispose();
  });

  it('opens ready to trim, and both handles drag with the mouse onto frames, the player showing the frame at the handle', async () => {
    // Opened directly by its route: the range is the whole video, a handle at each end.
    expect(await handleSeconds(page, 'trim-start')).to.equal(0);
    expect(await handleSeconds(page, 'trim-end')).to.be.closeTo(duration, 0.01);
    expect(await page.getByTestId('trim-start').getAttribute('aria-valuetext')).to.equal('0:00.0');
    await page.getByTestId('timeline-bookmark').waitFor();
    await page.getByTestId('waveform').waitFor();

    await dragTo(page, await centreOf(page, 'trim-start'), await trackX(page, 1.2, duration));
    const start = await handleSeconds(page, 'trim-start');
    expect(start).to.be.closeTo(1.2, 0.1);
    expect(Math.abs(start * FPS - Math.round(start * FPS)), 'the start lands on a frame').to.be.below(0.02);
    await waitForPlayerAt(page, start);

    await dragTo(page, await centreOf(page, 'trim-end'), await trackX(page, 3.6, duration));
    const end = await handleSeconds(page, 'trim-end');
    expect(end).to.be.closeTo(3.6, 0.1);
    await waitForPlayerAt(page, end);
    expect(await page.getByTestId('selection-label').innerText()).to.match(/^0:01\.\d – 0:03\.\d$/);
    await page.mouse.move(0, 0);
    await ui.screenshot('trim-editor');
    await expectNoSeriousViolations(ui.page, 'the trim editor with a range');
  });

  it('zooms in with the buttons and Ctrl + wheel, the playhead kept in view and the scale labelled without crowding', async () => {
    const viewport = page.getByTestId('timeline-viewport');
    const labels = page.getByTestId('timeline-scale').locator('.timeline__label');
    const labelTexts = async () => labels.allInnerTexts();
    // Fitted, a 5 s video is labelled in whole seconds.
    expect(await labelTexts()).to.include.members(['0:00', '0:01', '0:02', '0:03']);

    await page.getByTestId('frame-back').click(); // pauses, and puts the playhead on a frame near 3.6 s
    await page.getByTestId('zoom-in').click();
    await page.getByTestId('zoom-in').click();
    // A 5 s video: at most 2 s in view.
    expect(await page.getByTestId('zoom-level').innerText()).to.equal(`${(duration / 2).toFixed(1).replace(/\.0$/, '')}×`);
    expect(await page.getByTestId('zoom-in').isDisabled()).to.equal(true);
    const box = (await viewport.boundingBox())!;
    const playhead = (await page.getByTestId('playhead').boundingBox())!;
    expect(playhead.x).to.be.within(box.x, box.x + box.width);
    expect(await viewport.evaluate((element) => element.scrollLeft)).to.be.above(0);

    // Finer ticks, labelled in tenths, never closer than a label needs.
    const texts = await labelTexts();
    expect(
      texts.some((text) => /^0:0\d\.[1-9]$/.test(text)),
      texts.join(' '),
    ).to.equal(true);
    const lefts = await labels.evaluateAll((spans) => spans.map((span) => span.getBoundingClientRect().left));
    for (let index = 1; index < lefts.length; index++) expect(lefts[index]! - lefts[index - 1]!).to.be.at.least(60);
    await ui.screenshot('trim-editor-zoomed');
    await expectNoSeriousViolations(ui.page, 'the trim editor zoomed in');

    // Zoomed in, the plain wheel pans along the video.
    const scrolled = await viewport.evaluate((element) => element.scrollLeft);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height - 8);
    await page.mouse.wheel(0, -200);
    await waitForCondition(page, `document.querySelector('[data-testid="timeline-viewport"]').scrollLeft < ${scrolled - 50}`);

    // Ctrl + wheel zooms out again (and the page itself does not zoom).
    await page.keyboard.down('Control');
    for (let notch = 0; notch < 8; notch++) await page.mouse.wheel(0, 100);
    await page.keyboard.up('Control');
    await waitForCondition(page, `document.querySelector('[data-testid="zoom-level"]').innerText === '1×'`);
    expect(await page.evaluate('window.visualViewport.scale')).to.equal(1);
  });

  it('steps one frame at the file’s frame rate, with the buttons and with , and .', async () => {
    await page
      .getByTestId('frame-rate')
      .filter({ hasText: `${FPS} fps` })
      .waitFor();
    await page.getByTestId('playhead').focus();
    await page.keyboard.press('Home');
    await waitForPlayerAt(page, 0);
    await page.getByTestId('frame-forward').click();
    await waitForPlayerAt(page, 1 / FPS, 0.002);
    await page.getByTestId('frame-forward').click();
    await waitForPlayerAt(page, 2 / FPS, 0.002);
    await blur(page);
    await page.keyboard.press('.');
    await waitForPlayerAt(page, 3 / FPS, 0.002);
    await page.keyboard.press(',');
    await page.keyboard.press(',');
    await waitForPlayerAt(page, 1 / FPS, 0.002);
    await page.getByTestId('frame-back').click();
    await waitForPlayerAt(page, 0, 0.002);
  });

  it('answers the editor keys at page level, and leaves them to a text field being typed in', async () => {
    await blur(page);
    const paused = async () => (await page.evaluate(`document.querySelector('[data-testid="video-player"]').paused`)) as boolean;
    const selection = () => page.getByTestId('selection-label').innerText();

    // Space and K play and pause.
    await page.keyboard.press(' ');
    await waitForCondition(page, `!document.querySelector('[data-testid="video-player"]').paused`);
    await page.keyboard.press('k');
    await waitForCondition(page, `document.querySelector('[data-testid="video-player"]').paused`);
    await page.keyboard.press('k');
    await waitForCondition(page, `!document.querySelector('[data-testid="video-player"]').paused`);
    await page.keyboard.press(' ');
    await waitForCondition(page, `document.querySelector('[data-testid="video-player"]').paused`);

    // J and L: a second back and forward.
    await page.getByTestId('playhead').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('l');
    await waitForPlayerAt(page, 1);
    await page.keyboard.press('l');
    await page.keyboard.press('l');
    await waitForPlayerAt(page, 3);
    await page.keyboard.press('j');
    await waitForPlayerAt(page, 2);

    // Delete removes the range; I and O set a new one at the playhead.
    await page.keyboard.press('Delete');
    expect(await selection()).to.equal('No range selected');
    await page.getByTestId('timeline-selection').waitFor({ state: 'detached' });
    await page.keyboard.press('o');
    expect(await selection()).to.equal('0:00.0 – 0:02.0');
    await page.keyboard.press('j');
    await waitForPlayerAt(page, 1);
    await page.keyboard.press('i');
    expect(await selection()).to.equal('0:01.0 – 0:02.0');
    expect(await handleSeconds(page, 'trim-start')).to.equal(1);
    await page.keyboard.press('Backspace');
    expect(await selection()).to.equal('No range selected');

    // B bookmarks the playhead (of the type chosen beside the button); it is kept by the service.
    await page.getByRole('combobox', { name: 'Bookmark type' }).selectOption('Assist');
    await blur(page);
    await page.keyboard.press('b');
    await page.locator('[data-testid="bookmark-row"][data-type="Assist"]', { hasText: '0:01.0' }).waitFor();
    await page.locator('[data-testid="timeline-bookmark"][data-type="Assist"]').waitFor();

    // ? shows the legend of the keys.
    await page.keyboard.press('?');
    expect(await page.getByTestId('key-legend').innerText()).to.contain('Next frame');
    await page.keyboard.press('Escape');
    await page.getByTestId('key-legend').waitFor({ state: 'detached' });
    await page.getByTestId('key-legend-toggle').click();
    await page.getByTestId('key-legend').waitFor();
    await page.getByTestId('key-legend-toggle').click();
    await page.getByTestId('key-legend').waitFor({ state: 'detached' });

    // Typing a clip title: the letters go into the field, the player does not start.
    await page.getByTestId('clip-title').fill('');
    await page.getByTestId('clip-title').pressSequentially('kill ol');
    expect(await page.getByTestId('clip-title').inputValue()).to.equal('kill ol');
    expect(await paused()).to.equal(true);
    expect(await selection()).to.equal('No range selected');
    await page.getByTestId('clip-title').fill('');
  });

  it('shows the frame under the pointer while hovering the timeline, asking the service for one frame at a time', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    let asked = 0;
    const isFrame = (url: string) => url.includes('/api/thumbnail') && url.includes('time=');
    page.on('request', (request) => {
      if (!isFrame(request.url())) return;
      asked++;
      mostInFlight = Math.max(mostInFlight, ++inFlight);
    });
    const settled = (request: { url(): string }) => {
      if (isFrame(request.url())) inFlight--;
    };
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);

    const box = (await page.getByTestId('timeline-track').boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 4, y);
    await page.mouse.move(box.x + box.width - 4, y, { steps: 40 });
    await waitForCondition(
      page,
      `(() => {
        const frame = document.querySelector('[data-testid="timeline-preview-frame"]');
        return frame && frame.complete && frame.naturalWidth > 0;
      })()`,
      { timeout: 15000 },
    );
    // The last position asked while a frame loaded is the one asked next: the preview catches up with the pointer.
    await waitForCondition(
      page,
      `Number(document.querySelector('[data-testid="timeline-preview-frame"]')?.dataset.seconds) > ${duration - 0.5}`,
      { timeout: 15000 },
    );
    expect(mostInFlight, 'frame requests in flight at once').to.equal(1);
    expect(asked, 'frames asked while crossing the timeline').to.be.within(1, 40);
    await page.mouse.move(box.x + box.width / 2, box.y - 200);
    await page.getByTestId('timeline-preview').waitFor({ state: 'detached' });
  });

  it('trims a range to the second with the mouse and the keyboard; the clip made of it lasts that long', async () => {
    // Mouse: a rough range; keyboard: exact seconds, the end handle moved a second at a time.
    await page.getByTestId('playhead').focus();
    await page.keyboard.press('Home');
    const track = (await page.getByTestId('timeline-track').boundingBox())!;
    const y = track.y + track.height / 2;
    await dragTo(page, { x: await trackX(page, 0.7, duration), y }, await trackX(page, 2.4, duration));
    await page.getByTestId('timeline-selection').waitFor();
    await page.getByTestId('playhead').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('l');
    await page.keyboard.press('i');
    expect(await handleSeconds(page, 'trim-start')).to.equal(1);
    await page.getByTestId('trim-end').focus();
    await page.keyboard.press('Home'); // one frame after the start
    for (let second = 0; second < 2; second++) await page.keyboard.press('Shift+ArrowRight');
    for (let frame = 0; frame < 1; frame++) await page.keyboard.press('ArrowLeft');
    expect(await handleSeconds(page, 'trim-end')).to.equal(3);
    expect(await page.getByTestId('trim-end').getAttribute('aria-valuetext')).to.equal('0:03.0');

    await page.getByTestId('add-segment').click();
    await page.getByTestId('clip-segment').waitFor();
    await page.getByTestId('clip-title').fill('Trimmed to the second');
    await page.getByTestId('create-clip').click();
    await page.locator('[data-testid="job-card"][data-kind="clip"][data-phase="done"]').waitFor({ timeout: 60000 });
    await page.evaluate(`window.location.hash = '#/library/clips'`);
    const card = page.locator('[data-testid="content-card"][data-title="Trimmed to the second"]');
    await card.waitFor({ timeout: 15000 });
    const clip = (await card.getAttribute('data-file-path'))!;
    expect(await probeDuration(clip)).to.be.closeTo(2, 0.1);

    // The clip is a regular (not fragmented) MP4: its page reads the frame rate from the sample table.
    await card.getByTestId('content-title').click();
    await page.locator(`[data-testid="video-page"][data-file-path=${JSON.stringify(clip)}]`).waitFor();
    await page
      .getByTestId('frame-rate')
      .filter({ hasText: `${FPS} fps` })
      .waitFor();

    expect(ui.consoleErrors).to.deep.equal([]);
  });
});
