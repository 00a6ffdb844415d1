// The Library page in a real browser against the real service: recorded sessions and saved replays
// listed with thumbnails and bookmark counts, search and game filter, a highlight made from a card,
// rename, and a multi-select delete confirmed in a dialog (one DeleteMultipleContent, files gone).
import 'reflect-metadata';
import { expect } from 'chai';
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi, type UiSession } from '../kit/browser.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { recordLibrary, sentCommands, sessionsOf, thumbnailsLoaded, uiAddress } from './library-fixture.js';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

async function showSection(ui: UiSession, section: string): Promise<void> {
  await ui.page.evaluate(`window.location.hash = '#/library/${section}'`);
  await ui.page.getByTestId(`library-${section}`).waitFor();
}

describe('ui: library', function () {
  this.timeout(180000);
  const under = serviceUnderTest();
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    ui = undefined;
  });

  it('lists sessions and replays with thumbnails and bookmark counts, filters them, and makes a highlight', async () => {
    await recordLibrary(under, [
      {
        seconds: 4,
        saveReplay: true,
        bookmarks: [
          { type: 'Kill', atSeconds: 1 },
          { type: 'Death', atSeconds: 2 },
        ],
      },
    ]);
    ui = await openUi({ url: uiAddress(under, '/library/sessions') });
    const { page } = ui;

    const cards = page.getByTestId('content-card');
    await cards.first().waitFor({ timeout: 15000 });
    expect(await cards.count()).to.equal(1);
    await thumbnailsLoaded(page);
    const badges = page.getByTestId('bookmark-count');
    expect(await badges.allInnerTexts()).to.deep.equal(['Kill 1', 'Death 1']);
    expect(await badges.nth(0).getAttribute('class')).to.contain('bookmark-badge--positive');
    expect(await badges.nth(1).getAttribute('class')).to.contain('bookmark-badge--negative');
    expect(await cards.first().innerText()).to.contain('Manual Recording');
    await ui.screenshot('library-sessions');
    await expectNoSeriousViolations(page, 'library, sessions');

    // Search and game filter.
    await page.getByTestId('library-search').fill('no such video');
    await page.getByText('Nothing matches').waitFor();
    expect(await cards.count()).to.equal(0);
    await page.getByTestId('library-search').fill('manual');
    await cards.first().waitFor();
    await page.getByTestId('library-game-filter').selectOption('Manual Recording');
    expect(await cards.count()).to.equal(1);

    await showSection(ui, 'buffer');
    await cards.first().waitFor();
    expect(await cards.count()).to.equal(1);
    await thumbnailsLoaded(page);
    await ui.screenshot('library-buffer');

    await showSection(ui, 'highlights');
    await page.getByTestId('library-empty').waitFor();

    // A highlight from the session's card menu, with its progress card.
    await showSection(ui, 'sessions');
    await cards.first().getByTestId('actions-menu-button').click();
    await page.getByRole('menuitem', { name: 'Create highlight' }).click();
    await page.locator('[data-testid="job-card"][data-kind="highlight"][data-phase="done"]').waitFor({ timeout: 90000 });
    await showSection(ui, 'highlights');
    await cards.first().waitFor({ timeout: 15000 });
    expect(await cards.first().innerText()).to.contain('Kill');
    await thumbnailsLoaded(page);
    await ui.screenshot('library-highlights');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await ui.screenshot('library-highlights-1920');

    expect(ui.consoleErrors).to.deep.equal([]);
  });

  it('renames a video, then deletes two at once after confirming: one DeleteMultipleContent, files gone', async () => {
    const recorded = await recordLibrary(under, [{ seconds: 2 }, { seconds: 2 }]);
    const folder = path.dirname(sessionsOf(recorded)[0]!.filePath);
    ui = await openUi({ url: uiAddress(under, '/library/sessions') });
    const { page } = ui;
    const commands = await sentCommands(ui);
    const cards = page.getByTestId('content-card');
    await cards.nth(1).waitFor({ timeout: 15000 });

    // The card menu works from the keyboard: Enter opens it on its first action, Escape closes it.
    const menuButton = cards.first().getByTestId('actions-menu-button');
    await menuButton.focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(`document.activeElement.textContent`)).to.equal('Rename…');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(`document.activeElement.textContent`)).to.equal('Upload…');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await page.evaluate(`document.activeElement.getAttribute('aria-haspopup')`)).to.equal('menu');

    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    await page.getByTestId('rename-input').fill('Ace round');
    await page.getByTestId('rename-dialog').getByTestId('dialog-confirm').click();
    await page.locator('[data-testid="content-card"][data-title="Ace round"]').waitFor({ timeout: 10000 });
    expect(await exists(path.join(folder, 'Ace round.mp4'))).to.equal(true);

    // Cancelling the dialog deletes nothing.
    for (const box of await page.getByTestId('content-select').all()) await box.check();
    expect(await page.getByTestId('selected-count').innerText()).to.equal('2 selected');
    await page.getByTestId('delete-selected').click();
    await page.getByTestId('delete-dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await cards.count()).to.equal(2);

    await page.getByTestId('delete-selected').click();
    await page.getByTestId('delete-dialog').getByTestId('dialog-confirm').click();
    await page.getByTestId('library-empty').waitFor({ timeout: 10000 });
    const deletes = commands.filter(({ Method }) => Method === 'DeleteMultipleContent' || Method === 'DeleteContent');
    expect(deletes).to.have.length(1);
    expect(deletes[0]!.Method).to.equal('DeleteMultipleContent');
    expect(deletes[0]!.Parameters?.['Items']).to.have.length(2);
    const left = await readdir(path.dirname(folder)).catch(() => []);
    expect(left, 'session folders left').to.deep.equal([]);

    // Import asks the service for its file picker (none on this headless machine: it says so in a dialog).
    await page.getByTestId('import-button').click();
    await page.getByRole('dialog').waitFor();
    expect(commands.filter(({ Method }) => Method === 'ImportFile')).to.deep.equal([
      { Method: 'ImportFile', Parameters: { sectionId: 'sessions' } },
    ]);

    expect(ui.consoleErrors).to.deep.equal([]);
  });
});
