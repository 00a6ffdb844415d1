// Path safety with the real service: every command that takes a file name or a path (the FileName,
// FilePath, FilePaths, Segments, Items, Path, fileName and folder settings of commands.ts), given
// traversal (`..`), absolute paths elsewhere, symbolic links out, Windows drive letters and UNC
// paths, URL-encoded forms and NUL bytes, is refused; a canary folder outside the content folder and
// the content folder itself are byte-for-byte unchanged afterwards.
import 'reflect-metadata';
import { expect } from 'chai';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandName, CommandParametersMap, ContentItem, EventName } from '@keyframe/core/protocol';
import { Commands } from '@keyframe/core/protocol';
import { generateVideo } from '@keyframe/core/testing';
import { folderChecksum, folderListing } from '../kit/folder-checksum.js';
import { importGeneratedVideo } from '../kit/imported-video.js';
import { ffmpegPath } from '../kit/processes.js';
import { createTempFolder, type ProtocolClient, type ReceivedEvent, type TempFolder } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';

/** The parameters of commands.ts that name a file or folder; the suite must cover each of them. */
const PATH_PARAMETERS = /^(FileName|FilePath|FilePaths|fileName|Segments|Items|Path)$/;

/** A refusal: CommandRejected for the command, or its job's progress event reporting failure. */
const FAILURE_EVENTS: Partial<Record<CommandName, { event: EventName; failed: (content: Record<string, unknown>) => boolean }>> = {
  CreateClip: { event: 'ClipProgress', failed: (content) => content.progress === -1 },
  CreateAiClip: { event: 'AiProgress', failed: (content) => content.progress === -1 || content.status === 'error' },
  CompressVideo: { event: 'CompressionProgress', failed: (content) => content.status === 'error' },
  UploadContent: { event: 'UploadProgress', failed: (content) => content.status === 'error' },
  ImportFile: { event: 'ImportProgress', failed: (content) => content.status === 'error' },
};

interface Attempt<M extends CommandName = CommandName> {
  method: M;
  parameters: CommandParametersMap[M];
  shown: string;
}

describe('hardening: path safety', function () {
  this.timeout(240_000);
  const under = serviceUnderTest();
  let canary: TempFolder;

  beforeEach(async () => {
    canary = await createTempFolder('keyframe-canary-');
  });
  afterEach(async () => {
    await canary.remove();
  });

  it('covers every path-taking parameter of the protocol', () => {
    const covered = new Set(commandsTakingPaths());
    const taking = Object.entries(Commands)
      .filter(([, definition]) =>
        Object.keys((definition.parameters as { properties?: object }).properties ?? {}).some((key) => PATH_PARAMETERS.test(key)),
      )
      .map(([method]) => method);
    expect(taking.filter((method) => !covered.has(method as CommandName))).to.deep.equal([]);
  });

  it('refuses traversal, elsewhere, links out, drive letters, URL-encoded forms and NUL bytes in every such command; nothing changes', async () => {
    const { client: frontend } = await under.connect();
    frontend.send('UpdateSettings', { contentFolder: under.content.path });
    await frontend.until('Settings', (settings) => settings.contentFolder === under.content.path, 10_000);
    const item = await importGeneratedVideo(frontend, path.join(under.data.path, 'downloads'), 'match', { seconds: 3 });
    expect(item.filePath.startsWith(under.content.path)).to.equal(true);

    const victim = path.join(canary.path, 'victim.mp4');
    await generateVideo(ffmpegPath(), victim, { seconds: 2 });
    await mkdir(path.join(canary.path, 'notes'));
    await writeFile(path.join(canary.path, 'notes', 'keep.txt'), 'canary');
    const itemFolder = path.dirname(item.filePath);
    await symlink(victim, path.join(itemFolder, 'link-out.mp4'));
    await symlink(canary.path, path.join(under.content.path, 'link-folder'));
    const before = {
      canary: await folderChecksum(canary.path),
      content: await folderChecksum(under.content.path),
      listing: await folderListing(under.content.path),
    };

    const attempts = buildAttempts({ content: under.content.path, canary: canary.path, itemFolder, item });
    const outcomes: string[] = [];
    for (const attempt of attempts) {
      const outcome = await refusalOf(frontend, attempt);
      outcomes.push(outcome);
      expect(outcome, `${attempt.method} with ${attempt.shown}`).to.not.match(/^accepted/);
    }
    const byCode = new Map<string, number>();
    for (const outcome of outcomes) byCode.set(outcome, (byCode.get(outcome) ?? 0) + 1);
    console.log(
      `      ${attempts.length} attempts over ${new Set(attempts.map((attempt) => attempt.method)).size} commands: ${[...byCode].map(([code, count]) => `${code} ×${count}`).join(', ')}`,
    );

    expect(await folderChecksum(canary.path), 'canary folder').to.equal(before.canary);
    expect(await folderListing(under.content.path), 'content folder listing').to.deep.equal(before.listing);
    expect(await folderChecksum(under.content.path), 'content folder').to.equal(before.content);
    const { state, settings } = await frontend.handshake();
    expect(state.content.map(({ id, title, filePath }) => ({ id, title, filePath }))).to.deep.equal([
      { id: item.id, title: item.title, filePath: item.filePath },
    ]);
    expect(settings.contentFolder).to.equal(under.content.path);
    expect(under.process.isRunning).to.equal(true);
    expect(frontend.schemaViolations).to.deep.equal([]);
  });
});

function buildAttempts(where: { content: string; canary: string; itemFolder: string; item: ContentItem }): Attempt[] {
  const { content, canary, itemFolder, item } = where;
  const canaryName = path.basename(canary);
  const victim = path.join(canary, 'victim.mp4');
  const upToCanary = path.relative(itemFolder, victim);
  /** Absolute paths that a file command must refuse (all point at, or through, something outside). */
  const filePaths = [
    `${itemFolder}/${upToCanary}`,
    `${content}/../${canaryName}/victim.mp4`,
    victim,
    '/etc/passwd',
    `${itemFolder}/link-out.mp4`,
    `${content}/link-folder/victim.mp4`,
    `${content}/link-folder/notes/keep.txt`,
    `${content}/%2e%2e%2f${canaryName}%2fvictim.mp4`,
    `${itemFolder}/..%2f..%2f..%2f${canaryName}%2fvictim.mp4`,
    `file://${victim}`,
    `${item.filePath}\0.txt`,
    `${content}/\0/../../${canaryName}/victim.mp4`,
  ];
  /** Forms no command may take as a path: relative, Windows drive letters and shares, URL-encoded, NUL. */
  const foreignForms = [
    `../${canaryName}/victim.mp4`,
    `Full Sessions/../../${canaryName}/victim.mp4`,
    'C:\\Users\\Public\\victim.mp4',
    'C:/Windows/System32/drivers/etc/hosts',
    'c:victim.mp4',
    '\\\\server\\share\\victim.mp4',
    `%2e%2e%2f${canaryName}%2fvictim.mp4`,
    '..%5c..%5cvictim.mp4',
    'victim\0.mp4',
  ];
  const fileNames = [
    `../${canaryName}/victim`,
    `../../../../${canaryName}/victim`,
    '../../../etc/passwd',
    path.join(canary, 'victim'),
    'C:\\victim',
    '..\\..\\victim',
    `%2e%2e%2f${canaryName}%2fvictim`,
    'victim\0',
    `${item.fileName}\0`,
    'link-out',
    '..',
    '.',
  ];
  /** Folder commands may move the library anywhere absolute; `..`, relative forms and NUL are refused. */
  const folders = [`${content}/../${canaryName}`, `${canary}/notes/..`, `${content}/\0`, ...foreignForms];

  const attempts: Attempt[] = [];
  const add = <M extends CommandName>(method: M, shown: string, parameters: CommandParametersMap[M]) =>
    attempts.push({ method, parameters, shown } as Attempt);
  for (const FilePath of [...filePaths, ...foreignForms]) {
    const shown = JSON.stringify(FilePath);
    add('AddBookmark', shown, { FilePath, ContentType: 'Session', Type: 'Kill', Time: '00:00:01', Id: 7 });
    add('DeleteBookmark', shown, { FilePath, ContentType: 'Session', Id: 7 });
    add('SetFavorite', shown, { FilePath, ContentType: 'Session', Favorite: true });
    add('OpenFileLocation', shown, { FilePath });
    add('CopyFileToClipboard', shown, { FilePath });
    add('CompressVideo', shown, { FilePath });
    add('UploadContent', shown, { FilePath, Title: 'escape' });
    add('CreateClip', `segment filePath ${shown}`, {
      Segments: [{ id: 9001, startTime: 0, endTime: 1, fileName: 'no-such-video', filePath: FilePath, type: 'Session', game: item.game }],
    });
  }
  for (const FilePath of foreignForms) add('ImportFile', JSON.stringify(FilePath), { sectionId: 'sessions', FilePaths: [FilePath] });
  for (const FilePath of foreignForms) add('SelectGameExecutable', JSON.stringify(FilePath), { FilePath });
  for (const FileName of fileNames) {
    const shown = JSON.stringify(FileName);
    add('DeleteContent', shown, { FileName, ContentType: 'Session' });
    add('RenameContent', shown, { FileName, ContentType: 'Session', Title: 'escape' });
    add('DeleteMultipleContent', shown, { Items: [{ FileName, ContentType: 'Session' }] });
    add('CreateAiClip', shown, { FileName });
    add('CancelUpload', shown, { fileName: FileName });
    add('CreateClip', `segment fileName ${shown}`, {
      Segments: [{ id: 9002, startTime: 0, endTime: 1, fileName: FileName, type: 'Session', game: item.game }],
    });
  }
  for (const folder of folders) {
    const shown = JSON.stringify(folder);
    add('SetVideoLocation', shown, { Path: folder });
    add('SetCacheLocation', shown, { Path: folder });
    add('UpdateSettings', `contentFolder ${shown}`, { contentFolder: folder });
    add('UpdateSettings', `cacheFolder ${shown}`, { cacheFolder: folder });
  }
  return attempts;
}

function commandsTakingPaths(): CommandName[] {
  return buildAttempts({
    content: '/c',
    canary: '/k',
    itemFolder: '/c/f',
    item: { fileName: 'v', game: 'g', filePath: '/c/f/v.mp4' } as ContentItem,
  }).map((attempt) => attempt.method);
}

/** How the service answered: `rejected <code>`, `failed via <event>`, or `accepted …` when neither came. */
async function refusalOf(frontend: ProtocolClient, attempt: Attempt, timeoutMs = 15_000): Promise<string> {
  const from = frontend.events.length;
  frontend.sendRaw(JSON.stringify({ Method: attempt.method, Parameters: attempt.parameters }));
  const failure = FAILURE_EVENTS[attempt.method];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const event of frontend.events.slice(from)) {
      if (event.method === 'CommandRejected') {
        const rejection = (event as ReceivedEvent<'CommandRejected'>).content;
        if (rejection.method === attempt.method) return `rejected ${rejection.code}`;
      }
      if (failure && event.method === failure.event && failure.failed(event.content as Record<string, unknown>))
        return `failed via ${failure.event}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return `accepted: no refusal within ${timeoutMs} ms; got ${
    frontend.events
      .slice(from)
      .map((event) => event.method)
      .join(', ') || 'nothing'
  }`;
}
