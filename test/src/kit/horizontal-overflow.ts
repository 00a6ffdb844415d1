// What sticks out sideways in a page: a window too narrow for it scrolls (or clips) horizontally.
import type { Page } from 'playwright-core';

/**
 * The page's horizontal overflow, empty when it fits the window: the document or the app's scrolling
 * `main` wider than the window, and each element whose right edge passes the window's (clipped or
 * scrolled to), by tag, class and size. Elements inside a strip made to scroll sideways (an ancestor
 * with `overflow-x: auto | scroll` other than `main`) are its business, not the window's.
 */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const describe = (element) =>
      element.tagName.toLowerCase() + (typeof element.className === 'string' && element.className.trim() ? '.' + element.className.trim().split(/\\s+/).join('.') : '');
    const inSideScroller = (element) => {
      for (let parent = element.parentElement; parent && parent.tagName !== 'MAIN'; parent = parent.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(parent).overflowX)) return true;
      }
      return false;
    };
    const width = document.documentElement.clientWidth;
    const scrollers = [document.documentElement, ...document.querySelectorAll('main')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => describe(element) + ' scrolls ' + element.scrollWidth + ' px in ' + element.clientWidth);
    const sticking = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1 && !inSideScroller(element))
      .map((element) => {
        const box = element.getBoundingClientRect();
        return describe(element) + ' (' + Math.round(box.width) + ' px wide, right edge at ' + Math.round(box.right) + ')';
      });
    return [...scrollers, ...sticking.slice(0, 12)];
  })()`);
}
