// A library recorded with the real service before the browser opens: Hybrid sessions of the
// synthetic capture (each with one saved replay when asked), bookmarks added over the protocol.
// The test's own client then closes, so the page's connection is the only one.
import { formatDuration, type BookmarkType, type ContentItem, type State } from '@keyframe/core/protocol';
import type { Page } from 'playwright-core';
import { waitForCondition, type UiSession } from '../kit/browser.js';
import type { ServiceUnderTest } from '../kit/service-under-test.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RecordedSession {
  seconds: number;
  bookmarks?: { type: BookmarkType; atSeconds: number }[];
  saveReplay?: boolean;
}

/** Starts the service, records each session in turn and returns the final library, newest first. */
export async function recordLibrary(under: ServiceUnderTest, sessions: RecordedSession[]): Promise<State> {
  const { client } = await under.connect();
  client.send('UpdateSettings', {
    resolution: '720p',
    frameRate: 30,
    recordingMode: 'Hybrid',
    replayBufferDuration: 3,
    contentFolder: under.content.path,
    clipFps: 30,
    // The quickest x264/x265 preset: clips, highlights and compressions the pages start finish soonest.
    clipPreset: 'ultrafast',
    autoGenerateHighlights: false,
  });
  await client.next('Settings');
  let state: State | undefined;
  for (const [index, session] of sessions.entries()) {
    client.send('StartRecording');
    await client.next('State', (next) => next.recording !== null && next.preRecording === null, 15000);
    await sleep(session.seconds * 1000);
    if (session.saveReplay) {
      client.send('SaveReplayBuffer');
      await client.next('ReplayBufferSaved', () => true, 15000);
    }
    client.send('StopRecording');
    const sessionCount = index + 1;
    state = await client.next('State', (next) => next.recording === null && sessionsOf(next).length === sessionCount, 20000);
    const item = sessionsOf(state)[0]!;
    for (const bookmark of session.bookmarks ?? []) {
      const id = 1 + Math.floor(Math.random() * 2147483646);
      client.send('AddBookmark', {
        FilePath: item.filePath,
        ContentType: 'Session',
        Type: bookmark.type,
        Time: formatDuration(bookmark.atSeconds),
        Id: id,
      });
      state = await client.next('State', (next) => next.content.some((each) => each.bookmarks.some((mark) => mark.id === id)));
    }
  }
  await client.close();
  if (!state) throw new Error('recordLibrary needs at least one session');
  return state;
}

export function sessionsOf(state: State): ContentItem[] {
  return state.content.filter((item) => item.type === 'Session');
}

/** The page address of a route of the UI served by this service. */
export function uiAddress(under: ServiceUnderTest, route: string): string {
  return new URL(`#${route}`, under.process.url).href;
}

/** Resolves when every card thumbnail on the page has loaded a picture. */
export async function thumbnailsLoaded(page: Page): Promise<void> {
  await waitForCondition(
    page,
    `(() => {
    const images = [...document.querySelectorAll('[data-testid="content-thumbnail"]')];
    return images.length > 0 && images.every((image) => image.complete && image.naturalWidth > 0);
  })()`,
    { timeout: 15000 },
  );
}

/**
 * Every command frame the page sends over its WebSocket from now on, parsed. The page is reloaded so
 * that its connection is opened while Playwright listens.
 */
export async function sentCommands(ui: UiSession): Promise<{ Method: string; Parameters?: Record<string, unknown> }[]> {
  const commands: { Method: string; Parameters?: Record<string, unknown> }[] = [];
  ui.page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string' && payload.startsWith('{')) commands.push(JSON.parse(payload) as (typeof commands)[number]);
    }),
  );
  await ui.page.reload({ waitUntil: 'load' });
  return commands;
}
