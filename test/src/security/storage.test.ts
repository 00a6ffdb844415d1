// Issue 18, storage: the storage limit deletes only what it may and what helps, and asks first; every
// folder change passes one check; the size pass stays inside the content folder; and the web origins
// allowed to connect come only from the person starting Keyframe.
import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { allocatedFile, makeReadOnly, undoReadOnly } from '@keyframe/core/testing';
import { writeLibrarySession } from '../kit/library-session.js';
import { createTempFolder, ProtocolClient, type TempFolder } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';

const GIB = 1024 ** 3;
const HOUR = 3600_000;
const EVIL = 'https://evil.example';

describe('security: storage', function () {
  this.timeout(60000);
  const under = serviceUnderTest();
  let other: TempFolder;
  beforeEach(async () => {
    other = await createTempFolder('keyframe-other-');
  });
  afterEach(() => other.remove());

  /** (Re)starts the service on the data folder and connects a frontend. */
  const start = async (env: NodeJS.ProcessEnv = {}) => {
    await under.client?.close();
    await under.service?.stop();
    const frontend = await under.start(env);
    const { settings, state } = await frontend.handshake();
    return { frontend, settings, state };
  };

  /** settings.json as an older version (or the user) left it. */
  const writeSettings = async (settings: Record<string, unknown>) => {
    await mkdir(under.data.path, { recursive: true });
    await writeFile(path.join(under.data.path, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  };

  /** A library Session of `sizeGb` recorded `hoursOld` ago, in the content folder unless `file` is given. */
  const librarySession = (
    name: string,
    hoursOld: number,
    sizeGb: number,
    file = path.join(under.content.path, 'Full Sessions', 'Arena', `${name}.mp4`),
  ) => writeLibrarySession(under.data.path, file, hoursOld, sizeGb * GIB);

  /** Waits until the answer to the storage-limit question is on disk. */
  const savedAnswer = async (answer: 'allowed' | 'declined') => {
    const file = path.join(under.data.path, 'storage-limit-consent.json');
    for (let attempt = 0; attempt < 100; attempt++) {
      const saved = await readFile(file, 'utf8').then(
        (text) => JSON.parse(text) as { automaticDeletion: string },
        () => undefined,
      );
      if (saved?.automaticDeletion === answer) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the answer ${answer} was not saved`);
  };

  const contentIds = (state: { content: { id: string }[] }) => state.content.map((item) => item.id);

  describe('the storage limit', () => {
    it("deletes nothing when a 200 GB sparse file that is not Keyframe's puts the folder over a 150 GB limit", async () => {
      await writeSettings({ contentFolder: under.content.path, storageLimit: 150 });
      const sparse = path.join(under.content.path, 'disk image.img');
      await writeFile(sparse, '');
      await truncate(sparse, 200 * GIB);
      expect((await stat(sparse)).blocks).to.equal(0);
      const first = await librarySession('first', 5, 0.001);
      const second = await librarySession('second', 3, 0.001);

      const { frontend, state } = await start();
      expect(contentIds(state)).to.have.members([first.id, second.id]);
      expect(state.currentFolderSizeGb).to.equal(0);
      for (const kept of [first, second]) {
        expect(existsSync(kept.file)).to.equal(true);
        expect(existsSync(kept.sidecar)).to.equal(true);
      }
      expect((await stat(sparse)).size).to.equal(200 * GIB);
      expect(frontend.all('StorageWarning')).to.deep.equal([]);
      expect(frontend.schemaViolations).to.deep.equal([]);
    });

    it('asks before the first deletion; deletes nothing before the answer, the oldest first after it, and does not ask again', async () => {
      await writeSettings({ contentFolder: under.content.path, storageLimit: 1 });
      const oldest = await librarySession('oldest', 6, 0.5);
      const middle = await librarySession('middle', 5, 0.5);
      const newest = await librarySession('newest', 4, 0.3);

      const { frontend, state } = await start();
      const warning = await frontend.next('StorageWarning');
      expect(warning).to.deep.include({ action: 'storageLimit', confirmText: 'Delete Old Recordings', cancelText: 'Keep Everything' });
      expect(warning.description).to.include(under.content.path).and.include('1 GB');
      expect(state.currentFolderSizeGb).to.equal(1.3);
      expect(contentIds(state)).to.have.members([oldest.id, middle.id, newest.id]);
      for (const kept of [oldest, middle, newest]) expect(existsSync(kept.file), 'nothing deleted before the answer').to.equal(true);

      frontend.send('StorageWarningConfirm', {
        warningId: warning.warningId,
        confirmed: true,
        action: warning.action,
        actionData: warning.actionData,
      });
      const after = await frontend.until('State', (next) => next.content.length === 2, 10000);
      expect(contentIds(after)).to.have.members([middle.id, newest.id]);
      expect(existsSync(oldest.file)).to.equal(false);
      expect(existsSync(middle.file) && existsSync(newest.file)).to.equal(true);

      // Over the limit again at the next start: the answer holds, the oldest goes without a question.
      const later = await librarySession('later', 3, 0.5);
      const restarted = await start();
      expect(contentIds(restarted.state)).to.have.members([newest.id, later.id]);
      expect(existsSync(middle.file)).to.equal(false);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(restarted.frontend.all('StorageWarning')).to.deep.equal([]);
      expect(restarted.frontend.schemaViolations).to.deep.equal([]);
    });

    it('keeps everything when the user declines, without asking again, and asks again after the limit changes', async () => {
      await writeSettings({ contentFolder: under.content.path, storageLimit: 2 });
      const first = await librarySession('first', 5, 1.2);
      const second = await librarySession('second', 4, 1.2);

      const { frontend } = await start();
      const warning = await frontend.next('StorageWarning');
      frontend.send('StorageWarningConfirm', { warningId: warning.warningId, confirmed: false, action: warning.action });
      await savedAnswer('declined');
      const restarted = await start();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(restarted.frontend.all('StorageWarning'), 'declined: not asked again').to.deep.equal([]);
      expect(contentIds(restarted.state)).to.have.members([first.id, second.id]);

      restarted.frontend.send('UpdateSettings', { storageLimit: 1 });
      const again = await restarted.frontend.next('StorageWarning', () => true, 10000);
      expect(again.description).to.include('1 GB');
      expect(existsSync(first.file) && existsSync(second.file)).to.equal(true);
    });
  });

  describe('folder checks', () => {
    it('refuses UpdateSettings with /, /proc, /dev/null, a file or a read-only folder; Settings stay; /api/content serves nothing outside the library', async () => {
      const file = path.join(other.path, 'notes.txt');
      await writeFile(file, 'my notes');
      const readOnly = path.join(other.path, 'read-only');
      await mkdir(readOnly);
      const secret = path.join(other.path, 'private.mp4');
      await writeFile(secret, 'a video of mine that no web page may read');
      await makeReadOnly(readOnly);
      try {
        const { frontend, settings } = await start();
        const refusals: [string, string, string][] = [
          ['contentFolder', '/', 'root of a drive'],
          ['contentFolder', '/proc', 'system folder'],
          ['contentFolder', '/dev/null', 'system folder /dev'],
          ['contentFolder', file, 'a file, not a folder'],
          ['contentFolder', readOnly, 'read-only'],
          ['cacheFolder', '/', 'root of a drive'],
          ['cacheFolder', file, 'a file, not a folder'],
          ['cacheFolder', readOnly, 'read-only'],
        ];
        for (const [field, folder, why] of refusals) {
          frontend.send('UpdateSettings', { [field]: folder });
          const refusal = await frontend.next('CommandRejected');
          expect(refusal, `${field} ${folder}`).to.deep.include({ method: 'UpdateSettings', code: 'InvalidParameters' });
          expect(refusal.message).to.include(field).and.include(folder).and.include(why);
        }
        for (const method of ['SetVideoLocation', 'SetCacheLocation'] as const) {
          frontend.send(method, { Path: '/' });
          expect(await frontend.next('CommandRejected')).to.deep.include({ method, code: 'InvalidParameters' });
        }
        const { settings: after } = await frontend.handshake();
        expect(after).to.deep.equal(settings);
        const served = await fetch(`${under.process.url.replace(/\/$/, '')}/api/content?input=${encodeURIComponent(secret)}`);
        expect(served.status).to.equal(404);
        expect(frontend.schemaViolations).to.deep.equal([]);
      } finally {
        await undoReadOnly(readOnly);
      }
    });

    it('does not trust a content or cache folder of / left in settings.json by an older version: defaults, the rest kept, the user told', async () => {
      await writeSettings({ contentFolder: '/', cacheFolder: '/proc', frameRate: 30, storageLimit: 7, resolution: '720p' });
      const { frontend, settings } = await start();
      expect(settings.contentFolder)
        .to.match(/Keyframe$/)
        .and.satisfy((folder: string) => folder.startsWith(path.join(under.data.path, 'home')));
      expect(settings.cacheFolder).to.equal(path.join(under.data.path, 'cache'));
      expect(settings).to.deep.include({ frameRate: 30, storageLimit: 7, resolution: '720p' });
      const modal = await frontend.next('ShowModal');
      expect(modal.description).to.include('contentFolder').and.include('cacheFolder');
      expect(under.process.printed).to.include('root of a drive').and.include('system folder');
      const saved = JSON.parse(await readFile(path.join(under.data.path, 'settings.json'), 'utf8')) as Record<string, unknown>;
      expect(saved).to.deep.include({ contentFolder: settings.contentFolder, frameRate: 30, storageLimit: 7 });
    });
  });

  describe('the size pass stays in the content folder', () => {
    it('neither counts nor deletes a library video reached through a symbolic link that leads out of the content folder', async () => {
      await writeSettings({ contentFolder: under.content.path, storageLimit: 1 });
      const elsewhere = path.join(other.path, 'Elsewhere');
      const outside = await allocatedFile(path.join(elsewhere, 'outside.mp4'), 1.2 * GIB, new Date(Date.now() - 9 * HOUR));
      await mkdir(path.join(under.content.path, 'Full Sessions'), { recursive: true });
      await symlink(elsewhere, path.join(under.content.path, 'Full Sessions', 'Linked'));
      const throughFolder = await librarySession(
        'through a folder link',
        9,
        0,
        path.join(under.content.path, 'Full Sessions', 'Linked', 'outside.mp4'),
      );
      const linkTarget = await allocatedFile(path.join(elsewhere, 'target.mp4'), 0.1 * GIB, new Date(Date.now() - 8 * HOUR));
      const fileLink = path.join(under.content.path, 'Full Sessions', 'link.mp4');
      await symlink(linkTarget, fileLink);
      await librarySession('a file link', 8, 0, fileLink);
      // A big sparse file that is not Keyframe's: the old size pass counted it and then deleted through the links.
      const sparse = path.join(under.content.path, 'disk image.img');
      await writeFile(sparse, '');
      await truncate(sparse, 5 * GIB);

      const { frontend, state } = await start();
      expect(state.currentFolderSizeGb).to.equal(0);
      expect(contentIds(state)).to.include(throughFolder.id);
      expect(existsSync(outside) && existsSync(linkTarget) && existsSync(fileLink)).to.equal(true);
      expect(frontend.all('StorageWarning')).to.deep.equal([]);
    });
  });

  describe('allowed origins', () => {
    const connectFrom = (origin: string) =>
      ProtocolClient.connect(under.process.url, { origin }).then(
        async (connected) => {
          await connected.close();
          return 'accepted';
        },
        (failure: { statusCode?: number }) => failure.statusCode,
      );

    it('refuses UpdateSettings that changes allowedOrigins, and a page from that origin is still refused', async () => {
      const { frontend, settings } = await start();
      expect(settings.allowedOrigins).to.deep.equal([]);
      frontend.send('UpdateSettings', { allowedOrigins: [EVIL], frameRate: 30 });
      const refusal = await frontend.next('CommandRejected');
      expect(refusal).to.deep.include({ method: 'UpdateSettings', code: 'NotAllowed' });
      expect(refusal.message).to.include('allowedOrigins').and.include('--allowed-origin').and.include('KEYFRAME_ALLOWED_ORIGINS');
      expect(await connectFrom(EVIL)).to.equal(403);
      const { settings: after } = await frontend.handshake();
      expect(after).to.deep.equal(settings);
      // A frontend that sends the whole Settings object back is not refused for the list it was shown.
      frontend.send('UpdateSettings', { ...after, frameRate: 24 });
      expect((await frontend.next('Settings')).frameRate).to.equal(24);
    });

    it('no longer lets in an origin that an older version saved in settings.json; the other settings stay; the log says how to allow one', async () => {
      await writeSettings({ allowedOrigins: [EVIL], frameRate: 30, storageLimit: 7 });
      const { settings } = await start();
      expect(await connectFrom(EVIL)).to.equal(403);
      expect(settings).to.deep.include({ frameRate: 30, storageLimit: 7, allowedOrigins: [] });
      expect(under.process.printed).to.include('allowedOrigins saved in settings.json are ignored').and.include('--allowed-origin');
      const saved = JSON.parse(await readFile(path.join(under.data.path, 'settings.json'), 'utf8')) as Record<string, unknown>;
      expect(saved.allowedOrigins, 'the file is left as the user had it').to.deep.equal([EVIL]);
    });

    it('still lets in an origin from KEYFRAME_ALLOWED_ORIGINS, shown read-only in Settings', async () => {
      const { frontend, settings } = await start({ KEYFRAME_ALLOWED_ORIGINS: 'http://localhost:5173' });
      expect(settings.allowedOrigins).to.deep.equal(['http://localhost:5173']);
      expect(await connectFrom('http://localhost:5173')).to.equal('accepted');
      expect(await connectFrom(EVIL)).to.equal(403);
      expect(frontend.schemaViolations).to.deep.equal([]);
    });
  });
});
