// The service for the shell, recording and settings suites: started with the synthetic capture,
// configured over the protocol, then the test's own client closes so the page's connection is the only one.
import type { SettingsChanges } from '@keyframe/core/protocol';
import type { Page } from 'playwright-core';
import type { ServiceUnderTest } from '../kit/service-under-test.js';

/** Settings that keep a synthetic recording small and inside the test's content folder. */
export const quickRecording = (under: ServiceUnderTest): SettingsChanges => ({
  resolution: '720p',
  frameRate: 30,
  recordingMode: 'Session',
  contentFolder: under.content.path,
  autoGenerateHighlights: false,
});

export async function startConfigured(
  under: ServiceUnderTest,
  settings: SettingsChanges = quickRecording(under),
  env: NodeJS.ProcessEnv = {},
): Promise<void> {
  const { client } = await under.connect(env);
  client.send('UpdateSettings', settings);
  await client.next('Settings');
  await client.close();
}

/** Generous: the machine is shared and a recording start spawns ffmpeg. */
export const SLOW_UI_MS = 20_000;

/**
 * On a loaded machine the service may warn, in a dialog, that the encode cannot keep up: acknowledged
 * whenever it shows, so it does not stand in the way of a test that checks something else.
 */
export async function acknowledgeSlowEncodeWarnings(page: Page): Promise<void> {
  await page.addLocatorHandler(page.getByTestId('show-modal').filter({ hasText: "Recording can't keep up" }), (modal) =>
    modal.getByRole('button', { name: 'OK' }).click(),
  );
}
