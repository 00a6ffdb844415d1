// Organising the library in a real browser against the real service: clips of several games, lengths and
// sizes sorted every way the page offers, grouped by game with "Other" last, a favourite marked and
// filtered on, all three choices kept over a reload; and after an upload to a local tus platform, the
// item's "Copy link" puts the public link on the clipboard and "Open link" reaches the desktop's browser opener.
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDuration, type ContentItem } from '@keyframe/core/protocol';
import type { ProtocolClient } from '@keyframe/integration-testkit';
import type { Page } from 'playwright-core';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi, waitForCondition, type UiSession } from '../kit/browser.js';
import { importGeneratedVideo } from '../kit/imported-video.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { importUploadableVideo, TusPlatform } from '../kit/tus-platform.js';
import { uiAddress } from './library-fixture.js';

/** The clips made, oldest first: title, game, seconds. The source video is an import, so its game is "Imported" (no game). */
const CLIPS = [
  { title: 'arena two', game: 'Arena', seconds: 2 },
  { title: 'rally four', game: 'Rally', seconds: 4 },
  { title: 'other one', game: 'Imported', seconds: 1 },
  { title: 'arena three', game: 'Arena', seconds: 3 },
] as const;

async function makeClips(frontend: ProtocolClient, source: ContentItem): Promise<ContentItem[]> {
  for (const [index, { title, game, seconds }] of CLIPS.entries()) {
    const id = Date.now() + index;
    const { fileName, filePath } = source;
    frontend.send('CreateClip', { Segments: [{ id, startTime: 0, endTime: seconds, fileName, filePath, type: 'Session', title, game }] });
    await frontend.next('ClipProgress', (event) => event.id === id && (event.progress === 100 || event.progress === -1), 30000);
    await frontend.until('State', (state) => state.content.some((item) => item.type === 'Clip' && item.title === title), 10000);
  }
  const { state } = await frontend.handshake();
  return state.content.filter((item) => item.type === 'Clip');
}

const cardTitles = (page: Page) =>
  page.getByTestId('content-card').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-title')));

/** The card titles once the page shows exactly `expected` (the order follows a State or a choice a moment later). */
async function expectTitles(page: Page, expected: readonly string[]): Promise<void> {
  const wanted = JSON.stringify(expected);
  await waitForCondition(
    page,
    `JSON.stringify([...document.querySelectorAll('[data-testid="content-card"]')].map((card) => card.dataset.title)) === ${JSON.stringify(wanted)}`,
  ).catch(() => undefined);
  expect(await cardTitles(page)).to.deep.equal(expected);
}

describe('ui: organising the library', function () {
  this.timeout(120000);
  const under = serviceUnderTest();
  let ui: UiSession | undefined;
  let platform: TusPlatform | undefined;
  afterEach(async () => {
    await ui?.close();
    await platform?.stop();
    ui = undefined;
    platform = undefined;
  });

  it('sorts by date, size, length and game, groups by game with Other last, filters favourites, and keeps the choices', async () => {
    const { client: frontend } = await under.connect();
    frontend.send('UpdateSettings', { contentFolder: under.content.path, clipPreset: 'ultrafast', clipFps: 30 });
    await frontend.until('Settings', (settings) => settings.contentFolder === under.content.path, 10000);
    const source = await importGeneratedVideo(frontend, path.join(under.data.path, 'sources'), 'match', { seconds: 5 });
    const clips = await makeClips(frontend, source);
    await frontend.close();
    const by = (value: (item: ContentItem) => number) =>
      [...clips].sort((a, b) => value(b) - value(a) || Date.parse(b.createdAt) - Date.parse(a.createdAt)).map((item) => item.title);
    const largest = by((item) => item.fileSizeKb);
    expect(by((item) => parseDuration(item.duration) ?? 0)).to.deep.equal(['rally four', 'arena three', 'arena two', 'other one']);

    ui = await openUi({ url: uiAddress(under, '/library/clips') });
    const { page } = ui;
    await page.getByTestId('content-card').first().waitFor({ timeout: 15000 });
    await expectTitles(page, ['arena three', 'other one', 'rally four', 'arena two']);
    const sort = page.getByTestId('library-sort');
    expect(await sort.inputValue()).to.equal('newest');
    const orders: [string, string[]][] = [
      ['oldest', ['arena two', 'rally four', 'other one', 'arena three']],
      ['largest', largest],
      ['smallest', [...largest].reverse()],
      ['longest', ['rally four', 'arena three', 'arena two', 'other one']],
      ['shortest', ['other one', 'arena two', 'arena three', 'rally four']],
      ['game-z-a', ['rally four', 'arena three', 'arena two', 'other one']],
      ['game-a-z', ['arena three', 'arena two', 'rally four', 'other one']],
      ['newest', ['arena three', 'other one', 'rally four', 'arena two']],
    ];
    for (const [value, expected] of orders) {
      await sort.selectOption(value);
      await expectTitles(page, expected);
    }

    // Grouped: games A to Z with their counts, Other last; each group newest first.
    await sort.selectOption('longest');
    await page.getByLabel('Group by game').check();
    const groups = page.getByTestId('library-group');
    await groups.first().waitFor();
    expect(await groups.evaluateAll((sections) => sections.map((section) => section.querySelector('h2')?.textContent))).to.deep.equal([
      'Arena 2 videos',
      'Rally 1 video',
      'Other 1 video',
    ]);
    await expectTitles(page, ['arena three', 'arena two', 'rally four', 'other one']);
    await ui.screenshot('library-grouped');
    await expectNoSeriousViolations(ui.page, 'the library grouped by game');

    // A favourite, marked with its star, then only favourites.
    const rally = page.locator('[data-testid="content-card"][data-title="rally four"]');
    await rally.getByRole('button', { name: 'Favourite: rally four' }).click();
    await page.locator('[data-testid="content-card"][data-title="rally four"][data-favorite="true"]').waitFor();
    expect(await rally.getByTestId('content-favorite').getAttribute('aria-pressed')).to.equal('true');
    await page.getByLabel('Only favourites').check();
    await expectTitles(page, ['rally four']);

    // Kept over a reload: the page comes back sorted, grouped and filtered, the favourite from the service.
    await page.reload({ waitUntil: 'load' });
    await page.getByTestId('content-card').first().waitFor({ timeout: 15000 });
    expect(await page.getByTestId('library-sort').inputValue()).to.equal('longest');
    expect(await page.getByLabel('Group by game').isChecked()).to.equal(true);
    expect(await page.getByLabel('Only favourites').isChecked()).to.equal(true);
    expect(
      await page.getByTestId('library-group').evaluateAll((sections) => sections.map((section) => section.dataset.game)),
    ).to.deep.equal(['Rally']);
    await expectTitles(page, ['rally four']);

    // Taken off again from the card menu; "Only favourites" then shows nothing, and a button shows all again.
    await rally.getByTestId('actions-menu-button').click();
    await page.getByRole('menuitem', { name: 'Remove from favourites' }).click();
    await page.getByText('No favourites match').waitFor();
    await page.getByRole('button', { name: 'Show all videos' }).click();
    await expectTitles(page, ['arena three', 'arena two', 'rally four', 'other one']);
    expect(ui.consoleErrors).to.deep.equal([]);
  });

  it('offers Copy link and Open link on an uploaded item: the link on the clipboard, the browser opener asked', async () => {
    platform = await TusPlatform.start();
    // A stand-in for xdg-open on the service's PATH records what it was asked to open.
    const bin = path.join(under.data.path, 'bin');
    const opened = path.join(under.data.path, 'opened.txt');
    await mkdir(bin, { recursive: true });
    await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" >> '${opened}'\n`, { mode: 0o755 });
    const { client: frontend } = await under.connect(platform.environment({ PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` }));
    frontend.send('Login', platform.issueTokens());
    const item = await importUploadableVideo(frontend, under.data.path, under.content.path);
    await frontend.close();

    ui = await openUi({ url: uiAddress(under, '/library/sessions') });
    const { page } = ui;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(under.process.url).origin });
    const card = page.locator(`[data-testid="content-card"][data-file-path="${item.filePath}"]`);
    const openMenu = () => card.getByTestId('actions-menu-button').click();
    await openMenu();
    expect(await page.getByRole('menuitem', { name: 'Copy link' }).count()).to.equal(0);
    await page.getByRole('menuitem', { name: 'Upload…' }).click();
    await page.getByTestId('upload-dialog').getByRole('button', { name: 'Upload' }).click();
    await page.locator('[data-testid="job-card"][data-kind="upload"][data-phase="done"]').waitFor({ timeout: 60000 });
    const link = `${platform.origin}/watch/${platform.uploadIds[0]}`;

    await openMenu();
    await page.getByRole('menuitem', { name: 'Copy link' }).waitFor({ timeout: 10000 });
    await page.getByRole('menuitem', { name: 'Copy link' }).click();
    await card.getByTestId('actions-menu-note').getByText('Link copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(link);

    await openMenu();
    await page.getByRole('menuitem', { name: 'Open link' }).click();
    const deadline = Date.now() + 10000;
    while (!existsSync(opened) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await readFile(opened, 'utf8')).trim()).to.equal(link);
    expect(ui.consoleErrors).to.deep.equal([]);
  });
});
