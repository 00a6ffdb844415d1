// Application updates against a local HTTP update channel serving real .tar.gz packages: checks,
// downloads with progress, checksum refusal, progress replay, release notes, and installs through
// keyframe-launcher with a rollback when the new version does not start.
import 'reflect-metadata';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, readlink, realpath, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTempFolder, ProtocolClient, type TempFolder } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { buildPackage, LauncherRun, RUNNING_VERSION, SERVICE_MAIN, UpdateChannel } from '../kit/update-channel.js';

async function waitForLogLine(file: string, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(await readFile(file, 'utf8').catch(() => ''))) {
    if (Date.now() > deadline) throw new Error(`no log line ${pattern} in ${file} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const decode = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

describe('application updates', function () {
  const under = serviceUnderTest();
  let channel: UpdateChannel;
  let work: TempFolder;

  beforeEach(async () => {
    channel = await UpdateChannel.start();
    work = await createTempFolder('keyframe-update-work-');
  });
  afterEach(async () => {
    await channel.close();
    await work.remove();
  });

  const connect = () => under.connect({ KEYFRAME_UPDATE_FEED_URL: channel.feedUrl });

  it('finds no update when the channel has nothing newer: isCheckingForUpdates while it checks, no UpdateProgress', async () => {
    channel.publish('0.0.1', await buildPackage(work.path, 'old', { 'entry.mjs': '' }));
    channel.publish('99.0.0-beta.1', await buildPackage(work.path, 'beta', { 'entry.mjs': '' }), { channel: 'beta' });
    const { client } = await connect();
    channel.feedDelayMs = 400;
    client.send('CheckForUpdates');
    await client.next('State', (state) => state.isCheckingForUpdates, 10_000);
    await client.next('State', (state) => !state.isCheckingForUpdates, 10_000);
    expect(client.all('UpdateProgress')).to.deep.equal([]);
    expect(client.all('CommandRejected')).to.deep.equal([]);
    // Release notes of the stable channel only (the beta is not offered to stable users).
    const notes = await client.until('ReleaseNotes', (content) => content.releaseNotesList.length > 0, 10_000);
    expect(notes.releaseNotesList.map((note) => note.version)).to.deep.equal(['0.0.1']);
    expect(client.schemaViolations).to.deep.equal([]);
  });

  it('checks the channel again when receiveBetaUpdates changes, and not when another setting does', async () => {
    const { client } = await connect();
    const requests = async (count: number) => {
      for (let attempt = 0; attempt < 100 && channel.feedRequests < count; attempt++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return channel.feedRequests;
    };
    expect(await requests(1), 'the start-up check').to.equal(1);
    client.send('UpdateSettings', { frameRate: 30 });
    await client.next('Settings', (settings) => settings.frameRate === 30);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(channel.feedRequests, 'not for another setting').to.equal(1);
    client.send('UpdateSettings', { receiveBetaUpdates: true });
    expect(await requests(2), 'for the channel').to.equal(2);
  });

  it('downloads a newer release (downloading -> downloaded -> ready), replays the last progress and sends release notes in base64', async () => {
    const { client } = await connect();
    channel.publish(
      '9.0.0',
      await buildPackage(work.path, 'new', { 'entry.mjs': 'process.exit(0);\n', 'README.md': 'x'.repeat(200_000) }),
      { notes: '## What is new\n- Hotkeys ⌨' },
    );
    client.send('CheckForUpdates');
    const ready = await client.next('UpdateProgress', (progress) => progress.status === 'ready', 20_000);
    expect(ready).to.deep.equal({
      version: '9.0.0',
      progress: 100,
      status: 'ready',
      message: 'Update to version 9.0.0 is ready to install',
    });
    const updates = client.all('UpdateProgress');
    expect(updates[0]).to.deep.include({ version: '9.0.0', progress: 0, status: 'downloading' });
    expect(updates.map((progress) => progress.status)).to.include('downloaded');
    expect(updates.at(-2)).to.deep.include({ progress: 100, status: 'downloaded' });
    const values = updates.map((progress) => progress.progress);
    expect(values).to.deep.equal([...values].sort((a, b) => a - b));
    expect(await readdir(path.join(under.data.path, 'updates'))).to.include('keyframe-9.0.0.tar.gz');

    // A frontend that connects now (it replaces the first) is told where the update stands, then gets the notes.
    const second = await ProtocolClient.connect(under.process.url);
    await second.handshake();
    expect(await second.next('UpdateProgress')).to.deep.equal(ready);
    const { releaseNotesList } = await second.next('ReleaseNotes');
    expect(releaseNotesList).to.have.length(1);
    expect(releaseNotesList[0]).to.deep.include({ version: '9.0.0', releaseDate: '2026-11-20T12:00:00Z' });
    expect(decode(releaseNotesList[0]!.base64Markdown)).to.equal('## What is new\n- Hotkeys ⌨');

    // A forced check while the download is ready downloads nothing again.
    second.send('CheckForUpdates');
    await second.next('State', (state) => !state.isCheckingForUpdates, 10_000);
    expect(second.all('UpdateProgress')).to.deep.equal([ready]);

    // Not started by the launcher: it cannot replace itself, and says so.
    second.send('ApplyUpdate');
    const refusal = await second.next('CommandRejected');
    expect(refusal).to.deep.include({ method: 'ApplyUpdate', code: 'Unavailable' });
    expect(refusal.message).to.include('keyframe-launcher');
    expect([...client.schemaViolations, ...second.schemaViolations]).to.deep.equal([]);
    await second.close();
  });

  it('refuses a package whose SHA-256 does not match: error progress, the file removed, nothing to apply or replay', async () => {
    const { client } = await connect();
    const built = await buildPackage(work.path, 'tampered', { 'entry.mjs': '' });
    channel.publish('9.0.0', built, { sha256: createHash('sha256').update('something else').digest('hex') });
    client.send('CheckForUpdates');
    const failed = await client.next('UpdateProgress', (progress) => progress.progress === -1, 20_000);
    expect(failed).to.deep.include({ version: '9.0.0', status: 'downloaded' });
    expect(failed.message).to.match(/SHA-256/);
    const modal = await client.next('ShowModal', (content) => content.type === 'error', 5_000);
    expect(modal.title).to.include('9.0.0');
    expect(
      (await readdir(path.join(under.data.path, 'updates'))).filter((file) => file.endsWith('.gz') || file.endsWith('.download')),
    ).to.deep.equal([]);
    client.send('ApplyUpdate');
    expect(await client.next('CommandRejected')).to.deep.include({ method: 'ApplyUpdate', code: 'NotAllowed' });
    expect(client.schemaViolations).to.deep.equal([]);

    const second = await ProtocolClient.connect(under.process.url);
    await second.handshake();
    await second.next('ReleaseNotes');
    expect(second.all('UpdateProgress')).to.deep.equal([]);
    await second.close();
  });

  it('refuses CheckForUpdates when no update channel is configured', async () => {
    const { client } = await under.connect();
    client.send('CheckForUpdates');
    const refusal = await client.next('CommandRejected');
    expect(refusal).to.deep.include({ method: 'CheckForUpdates', code: 'Unavailable' });
    expect(refusal.message).to.include('KEYFRAME_UPDATE_FEED_URL');
  });

  it('asks the first frontend after a restart into a new version to show the notes since the previous one', async () => {
    await mkdir(path.join(under.data.path, 'updates'), { recursive: true });
    await writeFile(
      path.join(under.data.path, 'updates', 'restarted-from.json'),
      JSON.stringify({ previousVersion: '0.0.9', version: RUNNING_VERSION }),
    );
    const { client } = await under.connect();
    await client.next('ReleaseNotes');
    expect(await client.next('ShowReleaseNotes')).to.equal('0.0.9');
    const second = await ProtocolClient.connect(under.process.url);
    try {
      await second.handshake();
      await second.next('ReleaseNotes');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(second.all('ShowReleaseNotes')).to.deep.equal([]);
    } finally {
      await second.close();
    }
  });
});

/** A fake version's entry script: `body` runs once the ready message has left (or at once with `ready: false`). */
const fakeVersion = (body: string, ready = true) =>
  ready ? `process.send({ keyframe: 'ready' }, async () => {\n${body}\n});\n` : `${body}\n`;

/** What a version does to install `version`: point `current` at it in one rename, then ask for the restart. */
const switchAndRestart = (version: string) => `
  const { symlinkSync, renameSync } = await import('node:fs');
  const root = process.env.KEYFRAME_INSTALL_ROOT;
  symlinkSync(root + '/versions/${version}', root + '/.next-current');
  renameSync(root + '/.next-current', root + '/current');
  process.exit(75);`;

describe('keyframe-launcher', function () {
  let root: TempFolder;
  const runs: LauncherRun[] = [];

  beforeEach(async () => {
    root = await createTempFolder('keyframe-install-root-');
  });
  afterEach(async () => {
    await Promise.all(runs.splice(0).map((run) => run.stop()));
    await root.remove();
  });

  async function install(version: string, entry: string): Promise<string> {
    const folder = path.join(root.path, 'versions', version);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'entry.mjs'), entry);
    return folder;
  }

  const current = async () => path.basename(await readlink(path.join(root.path, 'current')));
  /** Where the fake versions say what happened to them. */
  const reportFile = () => path.join(root.path, 'report.txt');

  /** 1.0.0 installs 2.0.0 and restarts; when it runs again after a rollback it writes which version failed, then exits 0. */
  async function installUpdatingVersion(): Promise<void> {
    const first = await install(
      '1.0.0',
      fakeVersion(`
      if (process.env.KEYFRAME_ROLLED_BACK_FROM) {
        (await import('node:fs')).writeFileSync(${JSON.stringify(reportFile())}, 'rolled back from ' + process.env.KEYFRAME_ROLLED_BACK_FROM);
        process.exit(0);
      }
      ${switchAndRestart('2.0.0')}`),
    );
    await symlink(first, path.join(root.path, 'current'));
    await writeFile(reportFile(), '');
  }

  for (const [failure, entry] of [
    ['exits before it is ready', fakeVersion('process.exit(3);', false)],
    ['sends no ready message within the deadline', fakeVersion('setInterval(() => undefined, 1000);', false)],
  ] as const) {
    it(`rolls back to the previous version when the new one ${failure}, and keeps both`, async () => {
      await installUpdatingVersion();
      await install('2.0.0', entry);
      const run = LauncherRun.start(root.path, ['--entry', 'entry.mjs', '--ready-timeout', '3']);
      runs.push(run);
      expect(await run.exited, run.output).to.equal(0);
      expect(run.output).to.match(/version 2\.0\.0 did not start .*rolling back to 1\.0\.0/);
      expect(await readFile(reportFile(), 'utf8')).to.equal('rolled back from 2.0.0');
      expect(await current()).to.equal('1.0.0');
      expect(await readdir(path.join(root.path, 'versions'))).to.have.members(['1.0.0', '2.0.0']);
    });
  }

  it('runs the new version when it becomes ready, keeping the previous one on disk', async () => {
    await installUpdatingVersion();
    await install(
      '2.0.0',
      fakeVersion(`(await import('node:fs')).writeFileSync(${JSON.stringify(reportFile())}, 'running 2.0.0'); process.exit(0);`),
    );
    const run = LauncherRun.start(root.path, ['--entry', 'entry.mjs', '--ready-timeout', '10']);
    runs.push(run);
    expect(await run.exited, run.output).to.equal(0);
    expect(await readFile(reportFile(), 'utf8')).to.equal('running 2.0.0');
    expect(await current()).to.equal('2.0.0');
    expect(run.output).to.not.match(/rolling back/);
  });

  it('installs an update from the channel into the real service, restarts, and rolls back when the new version does not start', async function () {
    this.timeout(120_000);
    const channel = await UpdateChannel.start();
    const data = await createTempFolder();
    try {
      const running = await install(RUNNING_VERSION, `import ${JSON.stringify(pathToFileURL(SERVICE_MAIN).href)};\n`);
      await symlink(running, path.join(root.path, 'current'));
      channel.publish(
        '9.9.9',
        await buildPackage(root.path, 'broken', { 'entry.mjs': 'console.error("9.9.9 cannot start"); process.exit(1);\n' }),
      );
      const home = path.join(data.path, 'home');
      const run = LauncherRun.start(
        root.path,
        ['--entry', 'entry.mjs', '--ready-timeout', '60'],
        ['--data-dir', data.path, '--port', '0', '--legacy-port', 'off'],
        {
          HOME: home,
          USERPROFILE: home,
          KEYFRAME_CAPTURE: 'synthetic',
          KEYFRAME_GAME_PROCESS_ROOT: data.path,
          KEYFRAME_UPDATE_FEED_URL: channel.feedUrl,
        },
      );
      runs.push(run);

      const firstUrl = (await run.waitFor(/UI:\s+(http:\/\/\S+)/))[1]!;
      const client = await ProtocolClient.connect(firstUrl);
      await client.handshake();
      expect(client.latest('AppVersion')).to.deep.equal({ version: RUNNING_VERSION, canSelfUpdate: true });
      await client.until('UpdateProgress', (progress) => progress.status === 'ready', 30_000);
      client.send('ApplyUpdate');
      await client.closed;

      await run.waitFor(/version 9\.9\.9 did not start .*rolling back/);
      const secondUrl = (await run.waitFor(/UI:\s+(http:\/\/\S+)/, 1, 60_000))[1]!;
      const after = await ProtocolClient.connect(secondUrl);
      try {
        await after.handshake();
        const modal = await after.next('ShowModal', () => true, 10_000);
        expect(modal).to.deep.include({ title: 'The update was not installed', type: 'error' });
        expect(modal.description).to.include('9.9.9');
        // The version that failed here is not downloaded again by the restored one.
        await waitForLogLine(path.join(data.path, 'logs', 'keyframe.log'), /update not offered again: it did not start here/);
        expect(after.all('UpdateProgress')).to.deep.equal([]);
        expect(after.schemaViolations).to.deep.equal([]);
      } finally {
        await after.close();
      }
      expect(await realpath(path.join(root.path, 'current'))).to.equal(await realpath(running));
      expect(await readdir(path.join(root.path, 'versions'))).to.have.members([RUNNING_VERSION, '9.9.9']);
      expect(await run.stop()).to.equal(0);
    } finally {
      await channel.close();
      await data.remove();
    }
  });
});
