import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatLocalDateTime, type ContentItem } from '../protocol/index.js';
import { SettingsStore } from '../settings/settings-store.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import { Logger, type LogRecord } from '../support/logger.js';
import { toContentItem } from './content-item.js';
import { ContentLibrary } from './content-library.js';
import { migrateSidecars } from './sidecar-migration.js';

describe('migrateSidecars', () => {
  let folder: string;
  let metadata: string;
  let app: TestApp;
  const records: LogRecord[] = [];
  const logger = new Logger([{ level: 'debug', write: (record) => records.push(record), close: () => undefined }]);

  /** A version 1 sidecar as the service wrote it before, and its 3000-byte video. */
  const v1 = async (id: string, extra: Partial<ContentItem> & Record<string, unknown> = {}) => {
    const filePath = path.join(folder, 'Videos', 'Full Sessions', 'Arena', `${id}.mp4`).replaceAll('\\', '/');
    await mkdir(path.dirname(filePath), { recursive: true });
    await writeFile(filePath, Buffer.alloc(3000));
    const item = {
      id,
      type: 'Session',
      title: 'Round',
      game: 'Arena',
      bookmarks: [{ id: 4, type: 'Kill', subtype: null, time: '00:00:01.5000000', aiRating: 2 }],
      fileName: id,
      filePath,
      fileSize: '0.00 MB',
      fileSizeKb: 2,
      duration: '00:01:00',
      createdAt: formatLocalDateTime(new Date('2026-11-22T10:01:00.250Z')),
      aiAnalysis: null,
      uploadId: null,
      gameDatabaseId: 12,
      audioTrackNames: null,
      isImported: false,
      compressed: false,
      gameExePath: null,
      recordedFrom: '2026-11-22T10:00:00.250Z',
      recordedUntil: '2026-11-22T10:01:00.250Z',
      ...extra,
    };
    const file = path.join(metadata, 'Full Sessions', `${id}.json`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(item, null, 2)}\n`);
    return { file, item };
  };
  /** The items as a library loaded afresh lists them. */
  const listed = async () => {
    const library = app.fresh(ContentLibrary);
    await library.load();
    return library.list().map(toContentItem);
  };
  const wireOf = ({ recordedFrom: _from, recordedUntil: _until, gameExePath: _exe, ...item }: Record<string, unknown>) => item;

  beforeEach(async () => {
    app = await createTestApp({ settings: {}, overrides: [[Logger, logger]] });
    folder = app.dataFolder;
    metadata = path.join(app.resolve(SettingsStore).current.cacheFolder, 'metadata');
    records.length = 0;
  });
  afterEach(() => app.dispose());

  it('rewrites version 1 as version 2, the library shows the items as before, and a second run changes nothing', async () => {
    const first = await v1('a'.repeat(32));
    const second = await v1('b'.repeat(32), {
      createdAt: formatLocalDateTime(new Date('2026-11-22T11:00:00Z')),
      uploadId: 'u1',
      uploadUrl: 'https://x/watch/u1',
      audioTrackNames: ['Full Mix', 'Voice'],
    });
    await migrateSidecars(metadata, logger);

    const written = JSON.parse(await readFile(first.file, 'utf8')) as Record<string, unknown>;
    expect(written).to.deep.include({
      version: 2,
      durationSeconds: 60,
      sizeBytes: 3000,
      createdAt: '2026-11-22T10:01:00.250Z',
      gameDatabaseId: 12,
    });
    expect(written).to.not.have.any.keys('duration', 'fileSize', 'fileSizeKb', 'aiAnalysis', 'uploadId', 'audioTrackNames', 'gameExePath');
    expect(written.bookmarks).to.deep.equal([{ id: 4, type: 'Kill', seconds: 1.5, aiRating: 2 }]);
    expect(await listed()).to.deep.equal([wireOf(second.item), wireOf(first.item)]);
    expect(existsSync(`${metadata}-v1-backup`)).to.equal(false);

    const before = await readFile(second.file, 'utf8');
    await migrateSidecars(metadata, logger);
    expect(await readFile(second.file, 'utf8')).to.equal(before);
  });

  it('keeps the originals and says where when a sidecar cannot be replaced; the library still lists every item', async () => {
    const kept = await v1('a'.repeat(32));
    const failing = await v1('b'.repeat(32));
    const original = await readFile(failing.file, 'utf8');
    const write = (file: string, data: string | Uint8Array) =>
      file === failing.file ? Promise.reject(new Error('disk full')) : writeFileAtomic(file, data);

    const run = await migrateSidecars(metadata, logger, write).then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    expect(run).to.match(/1 of 2 content sidecars were not migrated; the originals are kept in .*metadata-v1-backup$/);
    expect(records.some((record) => record.level === 'error' && record.message === 'content sidecar not migrated')).to.equal(true);
    expect(await readFile(failing.file, 'utf8')).to.equal(original);
    expect((await readdir(path.join(`${metadata}-v1-backup`, 'Full Sessions'))).sort()).to.deep.equal([
      `${'a'.repeat(32)}.json`,
      `${'b'.repeat(32)}.json`,
    ]);
    expect(await readFile(path.join(`${metadata}-v1-backup`, 'Full Sessions', `${'a'.repeat(32)}.json`), 'utf8')).to.equal(
      `${JSON.stringify(kept.item, null, 2)}\n`,
    );
    expect((await listed()).map((item) => item.id).sort()).to.deep.equal(['a'.repeat(32), 'b'.repeat(32)]);

    await migrateSidecars(metadata, logger);
    expect(existsSync(`${metadata}-v1-backup`)).to.equal(false);
    expect(JSON.parse(await readFile(failing.file, 'utf8'))).to.include({ version: 2 });
  });

  it('leaves a sidecar the library would skip as it is', async () => {
    const file = path.join(metadata, 'Clips', `${'c'.repeat(32)}.json`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{"id": "broken"');
    await migrateSidecars(metadata, logger);
    expect(await readFile(file, 'utf8')).to.equal('{"id": "broken"');
    expect(existsSync(`${metadata}-v1-backup`)).to.equal(false);
  });
});
