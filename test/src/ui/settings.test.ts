// The Settings page against the real service: a change is saved and survives a reload, integrations
// cannot be switched (nor their own settings changed) while recording, third-party ones wait for approval,
// refused and failing ones say why, keys can be rebound, presets applied, games added.
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi } from '../kit/browser.js';
import { writeLibrarySession } from '../kit/library-session.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { quickRecording, SLOW_UI_MS, startConfigured } from './shell-fixture.js';

const manifestOf = (key: string) => ({
  apiVersion: 1,
  integration: { key, displayName: key, events: ['Kill'], games: [{ name: key, executables: [`${key}.exe`] }], feeds: [] },
});

describe('ui: settings page', function () {
  this.timeout(90_000);
  const under = serviceUnderTest();
  /** settings.json once it satisfies `saved` (writes are coalesced, so they land a moment after the echo). */
  const savedSettings = async (saved: (settings: Record<string, unknown>) => boolean) => {
    const deadline = Date.now() + SLOW_UI_MS;
    for (;;) {
      const settings = JSON.parse(await readFile(path.join(under.data.path, 'settings.json'), 'utf8')) as Record<string, unknown>;
      if (saved(settings) || Date.now() > deadline) return settings;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('saves a changed setting: it is in settings.json and still shown after a reload', async () => {
    await startConfigured(under);
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await page.getByTestId('nav-settings').click();
      const resolution = page.getByTestId('setting-resolution');
      await resolution.waitFor({ timeout: SLOW_UI_MS });
      expect(await resolution.inputValue()).to.equal('720p');
      // Under the encoder setting: what records, and why not the hardware encoder asked for (none works here).
      const inUse = page.getByText('Hardware (GPU) requested — recording with H.264 (x264, CPU) from ');
      await inUse.waitFor({ timeout: SLOW_UI_MS });
      expect(await inUse.textContent()).to.match(/: (no working hardware encoder was found|.+failed its start-up test encode.*)$/);
      await ui.screenshot('settings-recording');
      await expectNoSeriousViolations(page, 'settings, recording');

      await resolution.selectOption('1440p');
      await page.getByTestId('setting-rateControl').selectOption('CBR');
      const bitrate = page.getByTestId('setting-bitrate');
      await bitrate.fill('42');
      await bitrate.press('Enter');
      await page.locator('[data-testid="setting-bitrate"][value="42"]').waitFor({ timeout: SLOW_UI_MS });

      await page.reload();
      await resolution.waitFor({ timeout: SLOW_UI_MS });
      expect(await resolution.inputValue()).to.equal('1440p');
      expect(await page.getByTestId('setting-rateControl').inputValue()).to.equal('CBR');
      expect(await bitrate.inputValue()).to.equal('42');
      const saved = await savedSettings((settings) => settings.bitrate === 42);
      expect([saved.resolution, saved.rateControl, saved.bitrate]).to.deep.equal(['1440p', 'CBR', 42]);
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('switches an integration off, and disables the switches while a recording runs', async () => {
    await startConfigured(under);
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await page.goto(new URL('#/settings/integrations', under.process.url).href);
      const toggle = page.getByTestId('integration-toggle-arenaGameA');
      await toggle.waitFor({ timeout: SLOW_UI_MS });
      expect(await toggle.getAttribute('aria-checked')).to.equal('true');
      await toggle.click();
      await page.locator('[data-testid="integration-toggle-arenaGameA"][aria-checked="false"]').waitFor({ timeout: SLOW_UI_MS });
      await ui.screenshot('settings-integrations');

      await page.getByTestId('nav-recording').click();
      await page.getByTestId('start-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="recording"]').waitFor({ timeout: SLOW_UI_MS });
      await page.goBack();
      await page.getByTestId('integrations-locked').waitFor();
      expect(await toggle.isDisabled()).to.equal(true);
      expect(await page.getByTestId('integration-toggle-tacticalShooter').isDisabled()).to.equal(true);

      await page.getByTestId('nav-recording').click();
      await page.getByTestId('stop-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="idle"]').waitFor({ timeout: SLOW_UI_MS });
      await page.goBack();
      await page.getByTestId('integrations-locked').waitFor({ state: 'detached' });
      expect(await toggle.isDisabled()).to.equal(false);
      expect(await toggle.getAttribute('aria-checked')).to.equal('false');
      const saved = await savedSettings((settings) => JSON.stringify(settings.gameIntegrations).includes('"arenaGameA":{"enabled":false}'));
      expect(saved.gameIntegrations).to.deep.include({ arenaGameA: { enabled: false } });
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it("changes an integration's own setting: saved, shown after a service restart, locked with the reason while recording", async () => {
    await startConfigured(under);
    let ui = await openUi(under.process);
    const gameFolder = '/games/CurseForge/Instances/All the Mods';
    const field = (page: typeof ui.page) => page.getByTestId('integration-setting-blockSandbox-gameFolder');
    try {
      await ui.page.goto(new URL('#/settings/integrations', under.process.url).href);
      await field(ui.page).waitFor({ timeout: SLOW_UI_MS });
      expect(await ui.page.getByTestId('integration-settings-blockSandbox').innerText()).to.include('Game folder of another launcher');
      await field(ui.page).fill(gameFolder);
      await field(ui.page).press('Enter');
      const saved = await savedSettings((settings) => JSON.stringify(settings.gameIntegrations).includes(gameFolder));
      expect(saved.gameIntegrations).to.deep.include({ blockSandbox: { enabled: true, gameFolder } });
      await ui.screenshot('settings-integration-own-settings');
    } finally {
      await ui.close();
    }

    await under.process.stop();
    await under.connect();
    ui = await openUi(under.process);
    try {
      const { page } = ui;
      await page.goto(new URL('#/settings/integrations', under.process.url).href);
      await field(page).waitFor({ timeout: SLOW_UI_MS });
      expect(await field(page).inputValue()).to.equal(gameFolder);

      await page.getByTestId('nav-recording').click();
      await page.getByTestId('start-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="recording"]').waitFor({ timeout: SLOW_UI_MS });
      await page.goBack();
      await page.getByTestId('integrations-locked').waitFor();
      expect(await field(page).isDisabled()).to.equal(true);
      expect(await page.getByTestId('integration-settings-blockSandbox').innerText()).to.include(
        'Its settings can be changed when nothing is recording.',
      );
      await page.getByTestId('nav-recording').click();
      await page.getByTestId('stop-recording').click();
      await page.locator('[data-testid="recording-status"][data-phase="idle"]').waitFor({ timeout: SLOW_UI_MS });
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('shows a third-party integration waiting for approval with its package, folder and hash; approves it on an explicit click, and revokes it', async () => {
    const plugin = path.join(under.data.path, 'plugins', 'node_modules', 'keyframe-plugin-ui-probe');
    const enabledMarker = path.join(under.data.path, 'ui-probe.enabled');
    await mkdir(plugin, { recursive: true });
    await writeFile(
      path.join(plugin, 'package.json'),
      JSON.stringify({
        name: 'keyframe-plugin-ui-probe',
        version: '0.4.2',
        type: 'module',
        main: 'index.js',
        keyframe: {
          apiVersion: 1,
          integration: {
            key: 'uiProbe',
            displayName: 'UI probe',
            events: ['Kill'],
            games: [{ name: 'UI Probe', executables: ['ui-probe.exe'] }],
            feeds: [],
          },
        },
      }),
    );
    await writeFile(
      path.join(plugin, 'index.js'),
      `import { writeFileSync } from 'node:fs';
export default class UiProbe { async enable() { writeFileSync(${JSON.stringify(enabledMarker)}, ''); } async activate() {} async deactivate() {} }\n`,
    );
    await startConfigured(under);
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await page.goto(new URL('#/settings/integrations', under.process.url).href);
      const card = page.getByTestId('pending-integration-uiProbe');
      await card.waitFor({ timeout: SLOW_UI_MS });
      expect(await page.getByTestId('pending-integration-uiProbe-package').textContent()).to.equal('keyframe-plugin-ui-probe 0.4.2');
      expect(await page.getByTestId('pending-integration-uiProbe-path').textContent()).to.equal(plugin.split(path.sep).join('/'));
      const hash = await page.getByTestId('pending-integration-uiProbe-hash').getAttribute('title');
      expect(hash).to.match(/^[0-9a-f]{64}$/);
      expect(await page.getByTestId('integration-toggle-uiProbe').count(), 'no switch before approval').to.equal(0);
      await ui.screenshot('settings-integrations-pending');
      await expectNoSeriousViolations(page, 'settings, integrations with one waiting for approval');

      await page.getByTestId('review-integration-uiProbe').click();
      expect(existsSync(enabledMarker), 'the first click only asks').to.equal(false);
      await page.getByTestId('approve-integration-uiProbe').click();
      await page.getByTestId('integration-toggle-uiProbe').waitFor({ timeout: SLOW_UI_MS });
      await card.waitFor({ state: 'detached' });
      expect(existsSync(enabledMarker)).to.equal(true);

      await page.getByTestId('revoke-integration-uiProbe').click();
      await card.waitFor({ timeout: SLOW_UI_MS });
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('shows refused integration packages with the reason, including one that appears while the page is open; a failing one with its file and line', async () => {
    const modules = path.join(under.data.path, 'plugins', 'node_modules');
    // A development folder's plugin (trusted, so it loads) whose enable() throws on its line 3.
    const developing = path.join(under.data.path, 'developing', 'keyframe-plugin-broken');
    await mkdir(developing, { recursive: true });
    await writeFile(
      path.join(developing, 'package.json'),
      JSON.stringify({
        name: 'keyframe-plugin-broken',
        version: '0.1.0',
        type: 'module',
        main: 'index.js',
        engines: { keyframe: '*' },
        keyframe: manifestOf('brokenGame'),
      }),
    );
    await writeFile(
      path.join(developing, 'index.js'),
      "export default class Broken {\n  async enable() {\n    throw new Error('the game folder is not set');\n  }\n  async activate() {}\n  async deactivate() {}\n}\n",
    );
    const writeManifest = async (name: string, extra: object) => {
      await mkdir(path.join(modules, name), { recursive: true });
      await writeFile(path.join(modules, name, 'package.json'), JSON.stringify({ name, version: '2.0.0', main: 'index.js', ...extra }));
    };
    await writeManifest('keyframe-plugin-future', { engines: { keyframe: '^99.0.0' }, keyframe: manifestOf('futureGame') });
    await startConfigured(under, quickRecording(under), { KEYFRAME_PLUGIN_DIRS: path.dirname(developing) });
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await page.goto(new URL('#/settings/integrations', under.process.url).href);
      const future = page.getByTestId('integration-package-futureGame');
      await future.waitFor({ timeout: SLOW_UI_MS });
      expect(await future.getByTestId('integration-package-reason').textContent()).to.match(/^needs Keyframe \^99\.0\.0; this is \d/);
      expect(await future.textContent()).to.contain('keyframe-plugin-future 2.0.0');
      await ui.screenshot('settings-integrations-refused');

      await writeManifest('keyframe-plugin-typo', { keyframe: { apiVersion: 1, integration: { key: 'typoGame' } } });
      const typo = page.getByTestId('integration-package-typoGame');
      await typo.waitFor({ timeout: SLOW_UI_MS });
      expect(await typo.getByTestId('integration-package-reason').textContent()).to.match(/^bad keyframe manifest/);

      const broken = page.getByTestId('integration-brokenGame');
      await broken.getByText('enable() failed: the game folder is not set (at index.js:3)').waitFor({ timeout: SLOW_UI_MS });
      const log = await readFile(path.join(under.data.path, 'logs', 'keyframe.log'), 'utf8');
      expect(log, 'the stack of the error in the log').to.match(
        /Error: the game folder is not set\\n\s+at Broken\.enable \(file:[^)]*index\.js:3:/,
      );
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('rebinds a key (and says hotkeys need a desktop session), applies a preset and adds a game', async () => {
    // Without a display the service cannot hear hotkeys, and says so the first time they are changed.
    await startConfigured(under, quickRecording(under), { DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await page.goto(new URL('#/settings/keybindings', under.process.url).href);
      const keys = page.getByTestId('keybinding-TogglePreview-keys');
      await keys.waitFor({ timeout: SLOW_UI_MS });
      expect(await keys.textContent()).to.equal('F11');
      await page.getByTestId('keybinding-TogglePreview-change').click();
      await page.keyboard.press('Control+Shift+KeyP');
      await keys.filter({ hasText: 'Ctrl + Shift + P' }).waitFor({ timeout: SLOW_UI_MS });
      const previewKeys = (settings: Record<string, unknown>) =>
        (settings.keybindings as { action: string; keys: number[] }[]).find((binding) => binding.action === 'TogglePreview')?.keys;
      const saved = await savedSettings((settings) => previewKeys(settings)?.length === 3);
      expect(previewKeys(saved)).to.deep.equal([17, 16, 80]);
      const notice = page.getByTestId('show-modal');
      await notice.waitFor({ timeout: SLOW_UI_MS });
      expect(await notice.getByRole('heading').textContent()).to.equal('Hotkeys are not available');
      await page.keyboard.press('Escape');
      await notice.waitFor({ state: 'detached' });

      await page.getByTestId('settings-tab-presets').click();
      await page.getByTestId('video-presets').getByRole('button', { name: /^low/ }).click();
      await page.locator('[data-testid="video-presets"] [aria-pressed="true"]', { hasText: 'low' }).waitFor({ timeout: SLOW_UI_MS });
      await page.getByTestId('settings-tab-recording').click();
      expect(await page.getByTestId('setting-resolution').inputValue()).to.equal('720p');

      await page.getByTestId('settings-tab-games').click();
      await page.getByTestId('games-empty').waitFor();
      const executable = path.join(under.data.path, 'games', 'SpaceRacer.exe');
      await mkdir(path.dirname(executable));
      await writeFile(executable, 'not really a game');
      await page.getByTestId('game-executable').fill(executable);
      await page.getByTestId('add-game').click();
      const row = page.getByTestId('game-row');
      await row.waitFor({ timeout: SLOW_UI_MS });
      expect(await row.textContent())
        .to.contain('SpaceRacer')
        .and.to.contain(executable);
      const games = (await savedSettings((settings) => (settings.games as unknown[]).length === 1)).games as {
        name: string;
        record: boolean;
      }[];
      expect(games.map(({ name, record }) => ({ name, record }))).to.deep.equal([{ name: 'SpaceRacer', record: true }]);
      await ui.screenshot('settings-games');
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('draws every tab with the values of the service; the Desktop app tab saves start with the computer and a notification kind', async () => {
    await startConfigured(under);
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await page.getByTestId('nav-settings').click();
      for (const tab of ['recording', 'presets', 'storage', 'games', 'integrations', 'keybindings', 'updates', 'desktop', 'account']) {
        await page.getByTestId(`settings-tab-${tab}`).click();
        await page.getByTestId(`settings-${tab}`).waitFor({ timeout: SLOW_UI_MS });
        await ui.screenshot(`settings-tab-${tab}`);
      }
      await page.getByTestId('settings-tab-storage').click();
      expect(await page.getByTestId('content-folder').textContent()).to.equal(under.content.path);
      await page.getByRole('button', { name: 'Move videos' }).click();
      const migration = page.getByTestId('content-migration');
      await migration.waitFor({ timeout: SLOW_UI_MS });
      expect(await migration.textContent())
        .to.contain('Videos moved')
        .and.to.contain('Nothing to move.');
      await migration.getByRole('button', { name: 'Dismiss' }).click();
      await migration.waitFor({ state: 'detached' });
      await page.getByTestId('settings-tab-keybindings').click();
      expect(await page.getByTestId('keybinding-CreateBookmark-keys').textContent()).to.equal('F8');
      await page.getByTestId('settings-tab-desktop').click();
      await page.getByTestId('run-on-startup').click();
      await page.getByTestId('notification-notifyReplaySaved').click();
      await savedSettings((settings) => settings.runOnStartup === true && settings.notifyReplaySaved === false);
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('asks before the storage limit first deletes old recordings; keeping everything deletes nothing', async () => {
    const sessions = await Promise.all(
      [5, 4].map((hoursOld) =>
        writeLibrarySession(
          under.data.path,
          path.join(under.content.path, 'Full Sessions', 'Arena', `${hoursOld}h.mp4`),
          hoursOld,
          1.2 * 1024 ** 3,
        ),
      ),
    );
    await startConfigured(under, { ...quickRecording(under), storageLimit: 2 });
    const ui = await openUi(under.process);
    try {
      const { page } = ui;
      await page.goto(new URL('#/settings/storage', under.process.url).href);
      const warning = page.getByTestId('storage-warning');
      await warning.waitFor({ timeout: SLOW_UI_MS });
      expect(await warning.textContent())
        .to.contain('Delete old recordings to stay under your storage limit?')
        .and.to.contain(under.content.path);
      await ui.screenshot('settings-storage-warning');
      await page.getByTestId('storage-warning-cancel').click();
      await warning.waitFor({ state: 'detached' });
      for (const session of sessions) expect(existsSync(session.file)).to.equal(true);
      expect(await page.locator('.toast').count(), 'commands the service refused').to.equal(0);
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui.close();
    }
  });

  it('shows the release notes of the update channel as Markdown, never as raw HTML', async () => {
    const notes = [
      '## Highlights',
      '',
      'Clips are **faster** and _smaller_; see [the guide](https://example.com/guide).',
      '',
      '- New `Clip` editor',
      '- Fewer <img src=x onerror="window.injected=1"> surprises',
      '',
      '```',
      'keyframe --port 44030',
      '```',
    ].join('\n');
    const feed = createServer((request, response) => {
      if (request.url !== '/feed.json') return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          releases: [
            {
              version: '9.1.0',
              channel: 'stable',
              url: '/packages/keyframe-9.1.0.tar.gz',
              size: 1,
              sha256: 'a'.repeat(64),
              releaseDate: '2026-11-20T10:00:00Z',
              notes,
            },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = feed.address() as AddressInfo;
      await startConfigured(under, quickRecording(under), { KEYFRAME_UPDATE_FEED_URL: `http://127.0.0.1:${port}/feed.json` });
      const ui = await openUi(under.process);
      try {
        const { page } = ui;
        await page.goto(new URL('#/settings/updates', under.process.url).href);
        const entry = page.getByTestId('release-notes').locator('article');
        await entry.waitFor({ timeout: SLOW_UI_MS });
        expect(await entry.getByRole('heading', { level: 3 }).textContent()).to.equal('Version 9.1.0');
        expect(await entry.getByRole('heading', { level: 4 }).textContent()).to.equal('Highlights');
        expect(await entry.locator('strong').textContent()).to.equal('faster');
        expect(await entry.locator('em').textContent()).to.equal('smaller');
        expect(await entry.getByRole('link', { name: 'the guide' }).getAttribute('href')).to.equal('https://example.com/guide');
        expect(await entry.locator('li').allTextContents()).to.deep.equal([
          'New Clip editor',
          'Fewer <img src=x onerror="window.injected=1"> surprises',
        ]);
        expect(await entry.locator('pre').textContent()).to.equal('keyframe --port 44030');
        expect(await entry.locator('img').count()).to.equal(0);
        await ui.screenshot('settings-release-notes');
        expect(ui.consoleErrors).to.deep.equal([]);
      } finally {
        await ui.close();
      }
    } finally {
      await new Promise((resolve) => feed.close(resolve));
    }
  });
});
