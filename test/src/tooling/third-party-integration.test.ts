// The third party's path, outside this repository, from the packed tarballs only: the starter
// (create-keyframe-integration) creates an integration in a folder of its own, the SDK and the test
// kit are installed from their tarballs, and the generated project builds, checks its manifest and
// passes its own tests. Then its `npm pack` goes into a running Keyframe with `keyframe plugin
// install`: it shows in State and on the settings page, bookmarks a kill written to the log it
// follows during a recording, and `keyframe plugin remove` says it goes at the next start.
// One template (tail) gets its own full install; the other feed kinds are created beside it and build
// on that same install (their node_modules is a link to it), which keeps the test near a minute.
import { IntegrationService } from '@keyframe/integration-testkit';
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openUi, waitForCondition, type UiSession } from '../kit/browser.js';
import { packWorkspaces } from '../kit/packed-tarballs.js';
import { longTestsSelected } from '../kit/test-length.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const KINDS_ON_THE_SHARED_INSTALL = ['httpPush', 'poll', 'watchFolder', 'screenText', 'tcp', 'webSocket', 'udp'];
/** The `keyframe` command of the Keyframe the third party installs into: this repository's. */
const KEYFRAME = path.join(REPO, 'core', 'dist', 'main.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/**
 * The environment of a person at a shell: none of the `npm_*` variables that `npm test` sets for
 * this repository (its workspace, its config) reach the third party's npm.
 */
function outsideEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD'));
}

/** Runs a command to its end, as the third party would type it; `shell: false`, so arguments reach it as written. */
function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: outsideEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

const describeRun = (what: string, result: Run) =>
  `${what}: exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;

/** Runs a step that must succeed, and notes how long it took. */
async function step(timings: Map<string, number>, what: string, command: string, args: readonly string[], cwd: string): Promise<Run> {
  const result = await run(command, args, cwd);
  timings.set(what, result.ms);
  expect(result.code, describeRun(what, result)).to.equal(0);
  return result;
}

/** Runs `task` on every item, two at a time: this machine has two cores, and npm runs contend beyond that. */
async function twoAtATime<T>(items: readonly T[], task: (item: T) => Promise<unknown>): Promise<void> {
  for (let index = 0; index < items.length; index += 2) await Promise.all(items.slice(index, index + 2).map(task));
}

/** Asserts a generated project's `npm test` output: every test passed, the sample tape among them. */
function expectPassingTests(what: string, result: Run): void {
  expect(result.stdout, what).to.match(/\d+ passing/);
  expect(result.stdout, what).to.include('replays sample.tape.jsonl');
  expect(result.stdout, what).to.not.match(/failing|pending/);
}

describe('a third-party integration, from the packed tarballs (npm create keyframe-integration)', function () {
  this.timeout(240_000);
  const timings = new Map<string, number>();
  let temp: string;
  let tarballs: { core: string; testkit: string; create: string };
  let project: string;

  before(async function () {
    // Outside the repository, so nothing resolves from its node_modules.
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-third-party-'));
    const started = performance.now();
    const [core, testkit, create] = await packWorkspaces(['core', 'testkit', 'create'], temp);
    tarballs = { core: core!, testkit: testkit!, create: create! };
    timings.set('npm pack (core, testkit, create)', performance.now() - started);
    project = path.join(temp, 'my-game');
  });

  after(async () => {
    await rm(temp, { recursive: true, force: true });
    const lines = [...timings].map(([what, ms]) => `    ${(ms / 1000).toFixed(1).padStart(5)} s  ${what}`);
    console.log(`  third-party integration timings:\n${lines.join('\n')}`);
  });

  const create = (cwd: string, folder: string, feed: string) =>
    step(
      timings,
      `create ${feed}`,
      'npm',
      ['exec', '--yes', '--package', tarballs.create, '--', 'create-keyframe-integration', folder, '--feed', feed],
      cwd,
    );

  it('creates a tail integration that, with the SDK and the kit from tarballs, builds, checks its manifest and passes its tests', async () => {
    const created = await create(temp, 'my-game', 'tail');
    expect(created.stdout).to.include('Created my-game: keyframe-plugin-my-game, integration key myGame, a tail feed.');

    const install = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarballs.core, tarballs.testkit];
    await step(timings, 'npm install (tail, full)', 'npm', install, project);
    await step(timings, 'npm run build (tail)', 'npm', ['run', 'build'], project);
    await step(timings, 'npm run check (tail)', 'npm', ['run', 'check'], project);
    expectPassingTests('tail', await step(timings, 'npm test (tail)', 'npm', ['test'], project));
    // As the generated README says: in the project's folder, `keyframe tape` uses the package there.
    const played = await step(
      timings,
      'keyframe tape play (tail)',
      'npx',
      ['keyframe', 'tape', 'play', 'test/data/sample.tape.jsonl'],
      project,
    );
    expect(played.stdout).to.match(/sample\.tape\.jsonl: \d+ entries, [1-9]\d* bookmarks/);

    const manifest = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.peerDependencies).to.have.property('@keyframe/core');
    expect(manifest.devDependencies['@keyframe/core'], 'installed from its tarball').to.match(/^file:/);
  });

  it('installs the packed integration into a running Keyframe: in State and on the settings page, a bookmark from its log, then removed', async () => {
    const packed = await step(timings, 'npm pack (tail)', 'npm', ['pack', '--ignore-scripts', '--silent'], project);
    const tarball = path.join(project, packed.stdout.trim().split('\n').pop()!);
    // The template follows <local app data>/my-game/game.log: the game's log, here in the service's temp folder.
    const log = (temp: { path: string }) => path.join(temp.path, 'appdata', 'my-game', 'game.log');
    const keyframe = await IntegrationService.start({
      integration: 'myGame',
      env: (temp) => ({ KEYFRAME_LOCAL_APPDATA: path.join(temp.path, 'appdata') }),
      prepare: async (temp) => {
        await mkdir(path.dirname(log(temp)), { recursive: true });
        await writeFile(log(temp), '[12:00:00] Game started\n');
      },
    });
    let ui: UiSession | undefined;
    try {
      const dataFolder = path.join(keyframe.temp.path, 'data');
      const started = performance.now();
      await step(
        timings,
        'keyframe plugin install',
        process.execPath,
        [KEYFRAME, 'plugin', 'install', tarball, '--data-dir', dataFolder],
        project,
      );
      const loaded = await keyframe.client.until('State', (state) => state.integrations['myGame']?.status === 'idle', 15_000);
      timings.set('install until the running service shows it', performance.now() - started);
      expect(loaded.integrations['myGame']!.approval).to.deep.include({ status: 'approved', packageName: 'keyframe-plugin-my-game' });

      await keyframe.startGame('MyGame/my-game');
      await keyframe.recordWhileActive();
      // The tail feed reads what is written after it opened the log; until it has, a line may go unread.
      let bookmarks: string[] = [];
      for (let attempt = 0; attempt < 5 && bookmarks.length === 0; attempt++) {
        await appendFile(log(keyframe.temp), '[12:00:08] Kill: You eliminated Brisa\n');
        bookmarks = await keyframe.bookmarksReach(1, 2000).catch(() => []);
      }
      expect(bookmarks[0]).to.equal('Kill');
      const session = await keyframe.stopRecording();
      expect((await keyframe.savedBookmarks(session)).map((bookmark) => bookmark.type)).to.include('Kill');

      await step(
        timings,
        'keyframe plugin remove',
        process.execPath,
        [KEYFRAME, 'plugin', 'remove', 'keyframe-plugin-my-game', '--data-dir', dataFolder],
        project,
      );
      const removed = 'Removed — restart Keyframe to unload it';
      await keyframe.client.until(
        'State',
        (state) => state.integrationPackages.some((entry) => entry.key === 'myGame' && entry.reason === removed),
        15_000,
      );
      // Last, as the user sees it: the UI replaces the test's connection (the service serves one frontend).
      ui = await openUi(keyframe.service);
      await ui.page.goto(new URL('#/settings/integrations', keyframe.service.url).href);
      const entry = ui.page.getByTestId('integration-myGame');
      await entry.waitFor({ timeout: 10_000 });
      expect(await entry.textContent(), 'still loaded until the next start').to.include('My game');
      expect(await ui.page.getByTestId('integration-toggle-myGame').getAttribute('aria-checked')).to.equal('true');
      await waitForCondition(
        ui.page,
        `document.querySelector('[data-testid="integration-package-myGame"]')?.textContent.includes(${JSON.stringify(removed)})`,
        { timeout: 10_000 },
      );
      await ui.screenshot('third-party-integration-removed');
      expect(ui.consoleErrors).to.deep.equal([]);
    } finally {
      await ui?.close();
      await keyframe.stop();
    }
  });

  // Every feed kind again, after the tail kind above proved the path: `npm run test:long` runs it.
  (longTestsSelected() ? it : it.skip)(
    'creates every other feed kind, each building and passing its tests on one shared install (long)',
    async () => {
      const shared = path.join(temp, 'shared');
      await mkdir(shared);
      await symlink(path.join(project, 'node_modules'), path.join(shared, 'node_modules'), 'dir');
      const folders = KINDS_ON_THE_SHARED_INSTALL.map((feed) => `${feed}-game`);
      await twoAtATime(KINDS_ON_THE_SHARED_INSTALL, (feed) => create(shared, `${feed}-game`, feed));

      // One compiler run builds each project by its own tsconfig.json: what `npm run build` does in
      // each, without starting TypeScript seven times.
      await step(timings, 'tsc -b (the other seven)', 'npm', ['exec', '--no', '--', 'tsc', '-b', ...folders], shared);
      const checkAndTest = async (feed: string) => {
        const folder = path.join(shared, `${feed}-game`);
        await step(timings, `npm run check (${feed})`, 'npm', ['run', 'check'], folder);
        expectPassingTests(feed, await step(timings, `npm test (${feed})`, 'npm', ['test'], folder));
      };
      await twoAtATime(KINDS_ON_THE_SHARED_INSTALL, checkAndTest);
    },
  );
});
