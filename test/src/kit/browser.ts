// The web UI in a real headless Chromium (Debian's, driven by playwright-core): one fresh browser
// profile per session, every console error collected, screenshots saved and checked for blankness.
// One Chromium serves the whole test run (started at the first session, closed when mocha ends): each
// session is a new context in it, a profile of its own that shares nothing with the others.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** test/artifacts/screenshots, next to test/src and test/dist. */
export const SCREENSHOT_FOLDER = path.resolve(fileURLToPath(new URL('../../artifacts/screenshots', import.meta.url)));

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface UiOptions {
  /** Default 1280x720, the smallest size the UI supports. */
  viewport?: { width: number; height: number };
  /**
   * Console errors the test provokes on purpose and leaves out of `consoleErrors`, e.g. the browser's
   * own "WebSocket connection ... failed" while the service is restarting.
   */
  expectedConsoleErrors?: RegExp[];
  /** The browser's user agent, e.g. another system's (the UI words some advice for the system it runs on). */
  userAgent?: string;
}

export interface UiSession {
  page: Page;
  /** Console errors and uncaught page errors, in order; a suite asserts it is empty at the end. */
  consoleErrors: string[];
  /** Saves a PNG of the viewport under test/artifacts/screenshots/<name>.png and returns its path; throws when it is one colour. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

let browser: Promise<Browser> | undefined;

/** The run's Chromium, launched at the first call; launched again when it has gone or failed to start. */
function sharedBrowser(): Promise<Browser> {
  if (!browser) {
    const launching = chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
    launching.then(
      (launched) => launched.on('disconnected', () => (browser = undefined)),
      () => (browser = undefined),
    );
    browser = launching;
  }
  return browser;
}

// Under mocha, a root-level hook (this module loads with the test files) ends the run's Chromium with
// the run; the bench imports this package without mocha and never opens a browser.
if (typeof after === 'function') {
  after(async () => {
    const running = await browser?.catch(() => undefined);
    await running?.close();
  });
}

/** Opens the service's UI (its `url`, e.g. `http://127.0.0.1:<port>/`) in a fresh headless Chromium profile and waits for the page to load. */
export async function openUi(service: { url: string }, options: UiOptions = {}): Promise<UiSession> {
  const context = await (
    await sharedBrowser()
  ).newContext({
    viewport: options.viewport ?? { width: 1280, height: 720 },
    userAgent: options.userAgent,
  });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const record = (text: string) => {
    if (!options.expectedConsoleErrors?.some((expected) => expected.test(text))) consoleErrors.push(text);
  };
  page.on('console', (message) => {
    if (message.type() === 'error') record(message.text());
  });
  page.on('pageerror', (error) => record(`uncaught: ${error.message}`));
  await page.goto(service.url, { waitUntil: 'load' });

  return {
    page,
    consoleErrors,
    screenshot: async (name) => {
      const png = await page.screenshot({ fullPage: false });
      await mkdir(SCREENSHOT_FOLDER, { recursive: true });
      const file = path.join(SCREENSHOT_FOLDER, `${name}.png`);
      await writeFile(file, png);
      if (await isOneColour(context, png)) throw new Error(`screenshot ${file} is blank (one colour)`);
      return file;
    },
    close: () => context.close(),
  };
}

/**
 * Resolves when `expression` (page JavaScript, as text: this project has no DOM types) is truthy in the
 * page. Playwright's own waitForFunction runs its predicate through the page's `eval`, which the UI's
 * Content-Security-Policy forbids; `evaluate` goes through the debugging protocol, which the policy does not govern.
 */
export async function waitForCondition(page: Page, expression: string, { timeout = 5000 } = {}): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeout} ms in the page: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Decodes the PNG in a blank tab of the same browser and compares every pixel with the first.
 * The function runs in the browser, so it is passed as source (the test project has no DOM types).
 */
async function isOneColour(context: BrowserContext, png: Buffer): Promise<boolean> {
  const decoder = await context.newPage();
  try {
    return (await decoder.evaluate(`(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const drawing = canvas.getContext('2d');
      drawing.drawImage(bitmap, 0, 0);
      const pixels = new Uint32Array(drawing.getImageData(0, 0, bitmap.width, bitmap.height).data.buffer);
      return pixels.every((pixel) => pixel === pixels[0]);
    })(${JSON.stringify(png.toString('base64'))})`)) as boolean;
  } finally {
    await decoder.close();
  }
}
