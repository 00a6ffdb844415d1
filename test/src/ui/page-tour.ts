// Every page of the UI in turn, for the checks that hold on all of them (accessibility, narrow windows):
// the library's sections, the video page of an item, the recording page and each settings tab (as the
// settings page lists them, so a new tab is visited too).
import type { Page } from 'playwright-core';

const LIBRARY_SECTIONS = ['sessions', 'buffer', 'clips', 'highlights'];

/**
 * Goes to each page by its address (as a bookmark would) and runs `check` there once it is drawn. The video
 * page is `videoPath`'s, an item with bookmarks: it is drawn when they are.
 */
export async function tourEveryPage(page: Page, videoPath: string, check: (pageName: string) => Promise<void>): Promise<void> {
  const visit = async (hash: string, drawn: string, name: string) => {
    await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
    await page.locator(drawn).first().waitFor();
    await check(name);
  };
  for (const section of LIBRARY_SECTIONS) {
    await visit(`#/library/${section}`, `[data-testid="library-${section}"]`, `library, ${section}`);
  }
  await visit(`#/video/${encodeURIComponent(videoPath)}`, '[data-testid="timeline-bookmark"]', 'video page');
  await visit('#/recording', '[data-testid="recording-page"]', 'recording page');
  await page.evaluate(`window.location.hash = '#/settings/recording'`);
  await page.getByTestId('settings-tab-recording').waitFor();
  const tabs = await Promise.all(
    (await page.locator('[data-testid^="settings-tab-"]').all()).map(async (link) =>
      (await link.getAttribute('data-testid'))!.replace('settings-tab-', ''),
    ),
  );
  for (const tab of tabs) await visit(`#/settings/${tab}`, `[data-testid="settings-${tab}"]`, `settings, ${tab}`);
}
