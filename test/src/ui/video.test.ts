// The Video page in a real browser against the real service: the player streams and seeks, the
// timeline shows the bookmarks (Kill green, Death red) over the waveform, a bookmark is added and
// deleted; ranges of two videos become one clip whose progress card ends in Done; a clip that fails
// shows its reason until dismissed.
import 'reflect-metadata';
import { expect } from 'chai';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseDuration, type ContentItem } from '@keyframe/core/protocol';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi, waitForCondition, type UiSession } from '../kit/browser.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { recordLibrary, sentCommands, sessionsOf, thumbnailsLoaded, uiAddress } from './library-fixture.js';

/** The player's state, read in the page. */
async function player(ui: UiSession): Promise<{ readyState: number; duration: number; currentTime: number; seeking: boolean }> {
  return ui.page.evaluate(`(() => {
    const video = document.querySelector('[data-testid="video-player"]');
    return { readyState: video.readyState, duration: video.duration, currentTime: video.currentTime, seeking: video.seeking };
  })()`);
}

async function waitForMetadata(ui: UiSession): Promise<number> {
  await waitForCondition(ui.page, `document.querySelector('[data-testid="video-player"]')?.readyState >= 1`, { timeout: 15000 });
  return (await player(ui)).duration;
}

describe('ui: video page', function () {
  this.timeout(180000);
  const under = serviceUnderTest();
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    ui = undefined;
  });

  it('streams and seeks the video, shows its bookmarks on the timeline, adds and deletes one, follows a rename', async () => {
    const state = await recordLibrary(under, [
      {
        seconds: 5,
        bookmarks: [
          { type: 'Kill', atSeconds: 1 },
          { type: 'Death', atSeconds: 2 },
        ],
      },
    ]);
    const session = sessionsOf(state)[0]!;
    ui = await openUi({ url: uiAddress(under, `/video/${encodeURIComponent(session.filePath)}`) });
    const { page } = ui;

    const markers = page.getByTestId('timeline-bookmark');
    await markers.nth(1).waitFor({ timeout: 15000 });
    expect(await markers.allInnerTexts()).to.deep.equal(['Kill', 'Death']);
    expect(await markers.nth(0).getAttribute('class')).to.contain('timeline-marker--positive');
    expect(await markers.nth(1).getAttribute('class')).to.contain('timeline-marker--negative');
    await page.getByTestId('waveform').waitFor();

    // Seeking to the middle loads frames there: the service answers the player's range requests.
    const duration = await waitForMetadata(ui);
    expect(duration).to.be.closeTo(parseDuration(session.duration)!, 0.5);
    const track = page.getByTestId('timeline-track');
    const box = (await track.boundingBox())!;
    await track.click({ position: { x: box.width / 2, y: box.height / 2 } });
    await waitForCondition(
      page,
      `(() => {
      const video = document.querySelector('[data-testid="video-player"]');
      return !video.seeking && video.readyState >= 2 && Math.abs(video.currentTime - video.duration / 2) < 0.5;
    })()`,
      { timeout: 15000 },
    );

    // A bookmark at the current position, kept by the service (still there after a reload).
    await page.getByRole('combobox', { name: 'Bookmark type' }).selectOption('Assist');
    await page.getByTestId('add-bookmark').click();
    await page.locator('[data-testid="timeline-bookmark"][data-type="Assist"]').waitFor();
    await ui.screenshot('video-page');
    await expectNoSeriousViolations(page, 'video page');
    await page.reload();
    await page.locator('[data-testid="timeline-bookmark"][data-type="Assist"]').waitFor({ timeout: 15000 });
    expect((await markers.allInnerTexts()).sort()).to.deep.equal(['Assist', 'Death', 'Kill']);

    await page.locator('[data-testid="bookmark-row"][data-type="Assist"]').getByTestId('delete-bookmark').click();
    await page.getByTestId('delete-bookmark-dialog').getByTestId('dialog-confirm').click();
    await page.locator('[data-testid="timeline-bookmark"][data-type="Assist"]').waitFor({ state: 'detached' });
    await page.reload();
    await markers.nth(1).waitFor({ timeout: 15000 });
    expect(await markers.allInnerTexts()).to.deep.equal(['Kill', 'Death']);

    // Renamed from the page: the file moves, the page follows it. The player may ask for the old
    // address once between the move and the State that names the new one: that 404 is expected.
    expect(ui.consoleErrors, 'console errors before the rename').to.deep.equal([]);
    const beforeRename = ui.consoleErrors.length;
    await page.getByRole('button', { name: /^Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    await page.getByTestId('rename-input').fill('Renamed on its page');
    await page.getByTestId('rename-dialog').getByTestId('dialog-confirm').click();
    await page.locator('[data-testid="video-title"]', { hasText: 'Renamed on its page' }).waitFor({ timeout: 10000 });
    const renamedPath = `${path.dirname(session.filePath)}/Renamed on its page.mp4`;
    expect(await page.getByTestId('video-page').getAttribute('data-file-path')).to.equal(renamedPath);
    await waitForCondition(page, `decodeURIComponent(window.location.hash) === ${JSON.stringify(`#/video/${renamedPath}`)}`);
    expect(await markers.allInnerTexts()).to.deep.equal(['Kill', 'Death']);
    await waitForMetadata(ui);

    const movedFile404 = 'Failed to load resource: the server responded with a status of 404 (Not Found)';
    expect(ui.consoleErrors.slice(beforeRename).filter((error) => error !== movedFile404)).to.deep.equal([]);
  });

  it('joins ranges of two videos, each with its audio choices, into a clip; its progress card ends in Done and the clip is listed in Clips', async () => {
    const state = await recordLibrary(under, [{ seconds: 3 }, { seconds: 3 }]);
    const [second, first] = sessionsOf(state) as [ContentItem, ContentItem];
    const videoRoute = (item: ContentItem) => `/video/${encodeURIComponent(item.filePath)}`;
    ui = await openUi(
      { url: uiAddress(under, videoRoute(first)) },
      {
        // The test deletes a video under the open page: the player's and the range frame's requests then fail.
        expectedConsoleErrors: [/Failed to load resource: the server responded with a status of (404|500)/],
      },
    );
    const { page } = ui;
    const commands = await sentCommands(ui);
    const firstDuration = await waitForMetadata(ui);

    // First video: a range dragged from 20 % to 70 %.
    const track = page.getByTestId('timeline-track');
    const box = (await track.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.7, y, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId('timeline-selection').waitFor();
    expect(await page.getByTestId('selection-label').innerText()).to.not.equal('No range selected');
    await page.getByTestId('add-segment').click();
    await page.getByTestId('clip-segment').waitFor();

    // Second video: from its start to the middle, with Set end; the first range is still there.
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#${videoRoute(second)}`)}`);
    await page.locator(`[data-testid="video-page"][data-file-path=${JSON.stringify(second.filePath)}]`).waitFor();
    const secondDuration = await waitForMetadata(ui);
    await track.click({ position: { x: box.width / 2, y: box.height / 2 } });
    await page.getByTestId('set-end').click();
    await page.getByTestId('add-segment').click();
    await page.getByTestId('clip-segment').nth(1).waitFor();
    await page.getByTestId('clip-title').fill('UI clip');
    // Per-track audio: the first range's track louder (1 + 10 steps of 0.05), the second's muted.
    await page.getByTestId('clip-segment').nth(0).getByRole('slider', { name: 'Audio volume' }).focus();
    for (let step = 0; step < 10; step++) await page.keyboard.press('ArrowRight');
    await page.getByTestId('clip-segment').nth(1).getByTestId('track-enabled').uncheck();
    await waitForCondition(
      page,
      `(() => {
      const frames = [...document.querySelectorAll('[data-testid="segment-frame"]')];
      return frames.length === 2 && frames.every((frame) => frame.complete && frame.naturalWidth > 0);
    })()`,
      { timeout: 15000 },
    );
    await ui.screenshot('video-clip-editor');
    await expectNoSeriousViolations(page, 'video page, clip editor with two ranges');

    await page.getByTestId('create-clip').click();
    await page.locator('[data-testid="job-card"][data-kind="clip"]').waitFor({ timeout: 15000 });
    const [create] = commands.filter(({ Method }) => Method === 'CreateClip');
    const segments = create!.Parameters!['Segments'] as Record<string, unknown>[];
    expect(
      segments.map((segment) => [segment['filePath'], segment['title'], segment['audioTrackVolumes'], segment['mutedAudioTracks']]),
    ).to.deep.equal([
      [first.filePath, 'UI clip', { 0: 1.5 }, undefined],
      [second.filePath, 'UI clip', undefined, [0]],
    ]);
    await page.locator('[data-testid="job-card"][data-kind="clip"][data-phase="done"]').waitFor({ timeout: 90000 });

    await page.evaluate(`window.location.hash = '#/library/clips'`);
    const clipCard = page.locator('[data-testid="content-card"][data-title="UI clip"]');
    await clipCard.waitFor({ timeout: 15000 });
    const clipPath = (await clipCard.getAttribute('data-file-path'))!;
    expect(await readdir(path.dirname(clipPath))).to.include(path.basename(clipPath));
    // Half of each video.
    const expected = (firstDuration + secondDuration) / 2;
    const [minutes, seconds] = (await clipCard.locator('.content-card__duration').innerText()).split(':').map(Number);
    expect(minutes! * 60 + seconds!).to.be.within(Math.floor(expected) - 1, Math.ceil(expected) + 1);
    await thumbnailsLoaded(page);
    await ui.screenshot('library-clips');

    // Compressing the clip from its card: a compression card that ends (done, or skipped when not smaller).
    await clipCard.getByTestId('actions-menu-button').click();
    await page.getByRole('menuitem', { name: 'Compress' }).click();
    await page.locator('[data-testid="job-card"][data-kind="compression"][data-phase="done"]').waitFor({ timeout: 90000 });

    // A clip of a video whose file is gone fails: the card says why and stays until dismissed.
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#${videoRoute(first)}`)}`);
    await page.getByTestId('video-page').waitFor();
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await track.click({ position: { x: box.width * 0.8, y: box.height / 2 } });
    await page.getByTestId('set-end').click();
    await page.getByTestId('add-segment').click();
    await rm(first.filePath);
    await page.getByTestId('create-clip').click();
    const failed = page.locator('[data-testid="job-card"][data-kind="clip"][data-phase="failed"]');
    await failed.waitFor({ timeout: 30000 });
    expect(await failed.getByRole('alert').innerText()).to.not.equal('');
    await ui.screenshot('jobs-failed-clip');
    await failed.getByRole('button', { name: 'Dismiss' }).click();
    await failed.waitFor({ state: 'detached' });

    expect(ui.consoleErrors).to.deep.equal([]);
  });
});
