// Accessibility of every page, menu, dialog and connection screen of the UI (axe-core, WCAG 2 A and AA:
// no serious or critical violation), primary buttons readable (WCAG AA contrast), and every page fitting
// a narrow window. One service and one recorded library serve the whole suite, to keep it short.
import 'reflect-metadata';
import { expect } from 'chai';
import type { ContentItem } from '@keyframe/core/protocol';
import { expectNoSeriousViolations, textContrast } from '../kit/accessibility.js';
import { openUi, type UiSession } from '../kit/browser.js';
import { horizontalOverflow } from '../kit/horizontal-overflow.js';
import { ServiceUnderTest } from '../kit/service-under-test.js';
import { recordLibrary, sessionsOf, thumbnailsLoaded, uiAddress } from './library-fixture.js';
import { tourEveryPage } from './page-tour.js';
import { acknowledgeSlowEncodeWarnings, SLOW_UI_MS } from './shell-fixture.js';

/** The narrow windows a desktop user realistically gets: the sidebar as a strip (800), beside the page (1024). */
const NARROW_WIDTHS = [800, 1024];

describe('ui: accessibility', function () {
  this.timeout(90_000);
  const under = new ServiceUnderTest();
  let session: ContentItem;
  let ui: UiSession | undefined;
  before(async () => {
    await under.prepare();
    // A good and a bad bookmark: their badges and timeline marks are drawn in green and red.
    const bookmarks = [
      { type: 'Kill', atSeconds: 1 },
      { type: 'Death', atSeconds: 2 },
    ] as const;
    session = sessionsOf(await recordLibrary(under, [{ seconds: 3, saveReplay: true, bookmarks: [...bookmarks] }]))[0]!;
  });
  after(() => under.dispose());
  afterEach(async () => {
    await ui?.close();
    ui = undefined;
  });

  it('finds no serious violation on any page, menu or dialog', async () => {
    ui = await openUi({ url: uiAddress(under, '/library/sessions') });
    const { page } = ui;
    await thumbnailsLoaded(page);
    await tourEveryPage(page, session.filePath, (name) => expectNoSeriousViolations(page, name));

    await page.evaluate(`window.location.hash = '#/library/sessions'`);
    const menuButton = page.getByTestId('content-card').first().getByTestId('actions-menu-button');
    await menuButton.click();
    await page.getByRole('menu').waitFor();
    await expectNoSeriousViolations(page, 'the actions menu of a card');
    for (const [action, dialog] of [
      ['Rename…', 'rename-dialog'],
      ['Upload…', 'upload-dialog'],
    ] as const) {
      await page.getByRole('menuitem', { name: action }).click();
      await page.getByTestId(dialog).waitFor();
      await expectNoSeriousViolations(page, `the ${action} dialog`);
      await page.keyboard.press('Escape');
      await page.getByTestId(dialog).waitFor({ state: 'detached' });
      await menuButton.click();
    }
    await page.keyboard.press('Escape');
    await page.getByTestId('content-select').first().check();
    await page.getByTestId('delete-selected').click();
    await page.getByTestId('delete-dialog').waitFor();
    await expectNoSeriousViolations(page, 'the delete dialog');
    await page.getByTestId('delete-dialog').getByRole('button', { name: 'Cancel' }).click();
    // Import asks the service for its file picker; on this headless machine it answers with a dialog.
    await page.getByTestId('import-button').click();
    await page.getByTestId('show-modal').waitFor();
    await expectNoSeriousViolations(page, 'a dialog the service shows');
    expect(ui.consoleErrors).to.deep.equal([]);
  });

  it('fits every page in a narrow window, without sideways scrolling', async () => {
    ui = await openUi({ url: uiAddress(under, '/library/sessions') });
    const { page } = ui;
    await thumbnailsLoaded(page);
    for (const width of NARROW_WIDTHS) {
      await page.setViewportSize({ width, height: 600 });
      await tourEveryPage(page, session.filePath, async (name) => {
        expect(await horizontalOverflow(page), `${name}, ${width} px wide`).to.deep.equal([]);
        if (width === NARROW_WIDTHS[0] && name === 'video page') await ui!.screenshot('narrow-window');
      });
    }
    expect(ui.consoleErrors).to.deep.equal([]);
  });

  it('draws primary buttons with text of WCAG AA contrast (4.5:1), hovered too, and the recording badges readable', async () => {
    ui = await openUi({ url: uiAddress(under, '/recording') });
    const start = ui.page.getByTestId('start-recording');
    await start.waitFor({ timeout: SLOW_UI_MS });
    expect(await start.getAttribute('class')).to.contain('button--primary');
    const selector = '[data-testid="start-recording"]';
    expect(await textContrast(ui.page, selector)).to.be.at.least(4.5);
    await start.hover();
    await ui.page.waitForTimeout(200); // past the colour transition
    expect(await textContrast(ui.page, selector), 'hovered').to.be.at.least(4.5);

    // The recording's own badges (the phase, REC in the sidebar). The check's work may make the encode fall
    // behind on a busy machine: the warning it then shows is not what this tests.
    await acknowledgeSlowEncodeWarnings(ui.page);
    await start.click();
    await ui.page.locator('[data-testid="recording-status"][data-phase="recording"]').waitFor({ timeout: SLOW_UI_MS });
    await expectNoSeriousViolations(ui.page, 'recording page, recording');
    await ui.page.getByTestId('stop-recording').click();
    await ui.page.locator('[data-testid="recording-status"][data-phase="idle"]').waitFor({ timeout: SLOW_UI_MS });
  });

  it('finds no serious violation on the unreachable, replaced and connection-lost screens', async () => {
    // The browser reports each refused connection itself; those are expected here.
    ui = await openUi(under.process, { expectedConsoleErrors: [/WebSocket connection to .* failed/] });
    const { page } = ui;
    // The page's socket goes through this route: refused while `reachable` is false.
    let reachable = false;
    let open: { close(): Promise<void> } | undefined;
    await page.routeWebSocket(/./, (socket) => {
      if (!reachable) return socket.close();
      socket.connectToServer();
      open = socket;
    });
    await page.reload();
    await page.getByText('Keyframe is not reachable').waitFor({ timeout: SLOW_UI_MS });
    await expectNoSeriousViolations(page, 'the unreachable screen');

    reachable = true; // it retries by itself every 3 seconds
    await page.getByTestId('library-sessions').waitFor({ timeout: SLOW_UI_MS });
    const other = await openUi(under.process);
    try {
      await page.getByRole('button', { name: 'Reconnect here' }).waitFor({ timeout: SLOW_UI_MS });
      await expectNoSeriousViolations(page, 'the screen of a window another one replaced');
    } finally {
      await other.close();
    }
    await page.getByRole('button', { name: 'Reconnect here' }).click();
    await page.getByTestId('library-sessions').waitFor({ timeout: SLOW_UI_MS });
    reachable = false;
    await open?.close();
    await page.getByText('Connection to Keyframe lost. Reconnecting…').waitFor({ timeout: SLOW_UI_MS });
    await expectNoSeriousViolations(page, 'the library with the connection lost');
    expect(ui.consoleErrors).to.deep.equal([]);
  });
});
