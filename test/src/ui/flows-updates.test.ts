// The update flows of the UI against the real service: the "What's new" dialog after an update (which
// versions' notes, their Markdown, hostile HTML kept as text), installing a downloaded update through
// keyframe-launcher (the page follows the restart and reconnects), and the start-up migration overlay
// while the service migrates a library left by an older version.
import 'reflect-metadata';
import { expect } from 'chai';
import { cp, mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createTempFolder, ServiceProcess } from '@keyframe/integration-testkit';
import { expectNoSeriousViolations } from '../kit/accessibility.js';
import { openUi, type UiSession } from '../kit/browser.js';
import { freePort } from '../kit/free-port.js';
import { HeldFile } from '../kit/held-file.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { buildPackage, LauncherRun, RUNNING_VERSION, SERVICE_MAIN, UpdateChannel, type FeedRelease } from '../kit/update-channel.js';
import { uiAddress } from './library-fixture.js';
import { SLOW_UI_MS } from './shell-fixture.js';

/** The browser's own report of each refused reconnect while the service restarts. */
const RECONNECT_ERRORS = [/WebSocket connection to .* failed/];

const release = (version: string, notes: string, channel: FeedRelease['channel'] = 'stable'): FeedRelease => ({
  version,
  channel,
  url: `packages/keyframe-${version}.tar.gz`,
  size: 1,
  sha256: 'a'.repeat(64),
  releaseDate: '2026-11-20T12:00:00Z',
  notes,
});

describe('ui: update flows', function () {
  this.timeout(90_000);
  const under = serviceUnderTest();
  let ui: UiSession | undefined;
  let channel: UpdateChannel;
  beforeEach(async () => {
    channel = await UpdateChannel.start();
  });
  afterEach(async () => {
    await ui?.close();
    ui = undefined;
    await channel.close();
  });

  it('after an update from a beta, shows only the notes of the versions since it, with their Markdown and hostile HTML as text', async () => {
    const notes = [
      `## Keyframe ${RUNNING_VERSION}`,
      '- Clips',
      '  - Trim with the keyboard',
      '  - Zoom on the timeline',
      '- Read [the guide (draft)](https://example.com/guide_(draft)) first',
      '- Set clip_preset and max_bitrate_kbps in `settings.json`',
      '- <img src=x onerror="window.injected=1"> and <script>window.injected=2</script>',
      '- [a trap](javascript:window.injected=3)',
    ].join('\n');
    // Only releases up to the running version: nothing is downloaded.
    channel.releases = [
      release(RUNNING_VERSION, notes),
      release(`${RUNNING_VERSION}-beta.2`, '- The second beta', 'beta'),
      release(`${RUNNING_VERSION}-beta.1`, '- The first beta', 'beta'),
      release('0.0.1', '- The first release'),
    ];
    const env = { KEYFRAME_UPDATE_FEED_URL: channel.feedUrl };
    const { client } = await under.connect(env);
    client.send('UpdateSettings', { receiveBetaUpdates: true });
    await client.until('ReleaseNotes', (content) => content.releaseNotesList.length === 4, SLOW_UI_MS);
    await client.close();
    await under.process.stop();
    // What an update from the second beta leaves for the version it started.
    await writeFile(
      path.join(under.data.path, 'updates', 'restarted-from.json'),
      JSON.stringify({ previousVersion: `${RUNNING_VERSION}-beta.2`, version: RUNNING_VERSION }),
    );
    await (await under.start(env)).close();

    ui = await openUi(under.process);
    const { page } = ui;
    const dialog = page.getByTestId('release-notes-dialog');
    await dialog.waitFor({ timeout: SLOW_UI_MS });
    expect(await dialog.getByText(`Changes since version ${RUNNING_VERSION}-beta.2`).count()).to.equal(1);
    const entry = dialog.locator('article');
    await entry.getByRole('heading', { level: 3, name: `Version ${RUNNING_VERSION}` }).waitFor({ timeout: SLOW_UI_MS });
    expect(await entry.count(), 'only the release: the betas ran already').to.equal(1);

    const notesText = entry.locator('.markdown');
    expect(await notesText.locator(':scope > ul > li > ul > li').allTextContents()).to.deep.equal([
      'Trim with the keyboard',
      'Zoom on the timeline',
    ]);
    expect(await entry.getByRole('link', { name: 'the guide (draft)' }).getAttribute('href')).to.equal('https://example.com/guide_(draft)');
    expect(await notesText.getByText('Set clip_preset and max_bitrate_kbps in').count(), 'snake_case is not italic').to.equal(1);
    expect(await notesText.locator('em').count()).to.equal(0);
    expect(await notesText.getByText('<img src=x onerror="window.injected=1"> and <script>window.injected=2</script>').count()).to.equal(1);
    expect(await notesText.getByText('[a trap](javascript:window.injected=3)').count(), 'a javascript: link stays text').to.equal(1);
    expect(await notesText.getByRole('link').count()).to.equal(1);
    expect(await notesText.locator('img, script').count()).to.equal(0);
    expect(await page.evaluate('window.injected')).to.equal(undefined);
    await ui.screenshot('flows-release-notes-dialog');
    await expectNoSeriousViolations(ui.page, 'the release notes dialog');

    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(ui.consoleErrors).to.deep.equal([]);
  });

  it("installs a downloaded update from the header's badge: the page follows the restart into the new version and reconnects", async () => {
    const root = await createTempFolder('keyframe-install-root-');
    let run: LauncherRun | undefined;
    try {
      // The running version and the update both run this service (the update under another version number).
      const serviceEntry = `import ${JSON.stringify(pathToFileURL(SERVICE_MAIN).href)};\n`;
      const running = path.join(root.path, 'versions', RUNNING_VERSION);
      await mkdir(running, { recursive: true });
      await writeFile(path.join(running, 'entry.mjs'), serviceEntry);
      await symlink(running, path.join(root.path, 'current'));
      channel.publish('9.9.9', await buildPackage(root.path, 'update', { 'entry.mjs': serviceEntry }));
      const home = path.join(under.data.path, 'home');
      const port = await freePort();
      run = LauncherRun.start(
        root.path,
        ['--entry', 'entry.mjs', '--ready-timeout', '60'],
        ['--data-dir', under.data.path, '--port', String(port), '--legacy-port', 'off'],
        {
          HOME: home,
          USERPROFILE: home,
          KEYFRAME_CAPTURE: 'synthetic',
          KEYFRAME_GAME_PROCESS_ROOT: under.data.path,
          KEYFRAME_UPDATE_FEED_URL: channel.feedUrl,
        },
      );
      const url = (await run.waitFor(/UI:\s+(http:\/\/\S+)/))[1]!;

      ui = await openUi({ url }, { expectedConsoleErrors: RECONNECT_ERRORS });
      const { page } = ui;
      // Wherever the user is, the header says an update is ready, and leads to where it is installed.
      const badge = page.getByRole('banner').getByRole('link', { name: 'Update ready — 9.9.9' });
      await badge.waitFor({ timeout: 30_000 });
      await ui.screenshot('flows-update-ready-badge');
      await badge.click();
      await page.waitForURL(/#\/settings\/updates$/);
      const install = page.getByRole('button', { name: 'Install and restart' });
      await install.waitFor({ timeout: SLOW_UI_MS });
      expect(await page.getByTestId('update-progress').getByText('Version 9.9.9: Ready to install').count()).to.equal(1);
      await ui.screenshot('flows-update-ready');
      await expectNoSeriousViolations(ui.page, 'settings, an update ready');
      // The restarted copy is this same service: it must not find 9.9.9 newer than itself again.
      channel.releases = [];
      await install.click();

      await page.getByText('Connection to Keyframe lost. Reconnecting…').waitFor({ timeout: SLOW_UI_MS });
      await run.waitFor(/UI:\s+(http:\/\/\S+)/, 1, 60_000);
      await page.locator('.status-dot--open').waitFor({ timeout: 30_000 });
      await page.getByText('Connection to Keyframe lost. Reconnecting…').waitFor({ state: 'detached' });
      expect(await realpath(path.join(root.path, 'current'))).to.equal(await realpath(path.join(root.path, 'versions', '9.9.9')));
      // What was ready before the restart is installed: not offered again.
      await page.getByText('No update is being downloaded.').waitFor({ timeout: SLOW_UI_MS });
      expect(await page.getByRole('button', { name: 'Install and restart' }).count()).to.equal(0);
      expect(await page.getByTestId('update-ready-badge').count(), 'no badge once installed').to.equal(0);
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui?.close();
      ui = undefined;
      expect(await run?.stop()).to.equal(0);
      await root.remove();
    }
  });

  it('covers the app while the real service migrates an old library, saying what it does, and goes when it is done', async () => {
    await copyLibraryV1(under.data.path);
    // The migration waits at this sidecar until the test releases it: the page connects in the middle of it.
    const held = await HeldFile.hold(path.join(under.data.path, 'cache', 'metadata', 'Clips', 'bfab2ac4964c42128f2cefe20292325a.json'));
    const port = await freePort();
    const starting = ServiceProcess.start({
      dataFolder: under.data.path,
      port,
      legacyPort: 'off',
      env: { KEYFRAME_CAPTURE: 'synthetic', TZ: 'Europe/Berlin' },
    });
    starting.catch(() => {}); // awaited below
    try {
      await held.reading();
      // The fixture keeps no thumbnails: the cards show their placeholder after the browser's 404.
      ui = await openUi({ url: `http://127.0.0.1:${port}/#/library/sessions` }, { expectedConsoleErrors: [/status of 404 \(Not Found\)/] });
      const { page } = ui;
      // The MigrationStatus frames of the page's newest connection.
      let statuses: unknown[] = [];
      page.on('websocket', (socket) => {
        const received: unknown[] = (statuses = []);
        socket.on('framereceived', ({ payload }) => {
          const event = JSON.parse(String(payload)) as { method: string; content: unknown };
          if (event.method === 'MigrationStatus') received.push(event.content);
        });
      });
      await page.reload(); // with the frames of its connection recorded from the start

      const overlay = page.getByRole('alertdialog', { name: 'Updating your data…' });
      await overlay.waitFor({ timeout: SLOW_UI_MS });
      await overlay.getByText('Updating the details of your videos to the new format…').waitFor();
      expect(await overlay.textContent(), 'no internal name').to.not.match(/0002|sidecars|_/);
      await ui.screenshot('flows-migration-overlay');
      await expectNoSeriousViolations(ui.page, 'the migration overlay');

      await held.release();
      await overlay.waitFor({ state: 'detached', timeout: SLOW_UI_MS });
      expect(statuses).to.deep.equal([
        { isRunning: true, currentMigration: 'Updating the details of your videos to the new format' },
        { isRunning: false, currentMigration: null },
      ]);
      under.service = await starting;

      // The library the old version left, migrated: its three videos, each in its section.
      for (const section of ['sessions', 'buffer', 'clips']) {
        await page.goto(uiAddress(under, `/library/${section}`));
        await page.getByTestId('content-card').first().waitFor({ timeout: SLOW_UI_MS });
        expect(await page.getByTestId('content-card').count(), section).to.equal(1);
      }
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await held.release();
      under.service ??= await starting;
    }
  });
});

const LIBRARY_V1 = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'library-v1');

/** test/fixtures/library-v1 in `data`, its paths (made under /tmp/keyframe-library-v1) pointed there. */
async function copyLibraryV1(data: string): Promise<void> {
  await cp(LIBRARY_V1, data, { recursive: true });
  for (const name of (await readdir(data, { recursive: true })).filter((entry) => entry.endsWith('.json'))) {
    const file = path.join(data, name);
    await writeFile(file, (await readFile(file, 'utf8')).replaceAll('/tmp/keyframe-library-v1', data));
  }
}
