// Media jobs cut off with the real service: a compression running when the service stops is ended
// with nothing left behind, and a clip job killed with the service (kill -9) never shows up as a
// half-written clip after the next start.
import 'reflect-metadata';
import { expect } from 'chai';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { generateVideo } from '@keyframe/core/testing';
import { type ProtocolClient } from '@keyframe/integration-testkit';
import { ffmpegPath, processesMentioning } from '../kit/processes.js';
import { serviceUnderTest } from '../kit/service-under-test.js';

/** Every file below `folder`, hidden ones too, relative. */
async function filesBelow(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('media jobs cut off', function () {
  this.timeout(180000);
  const under = serviceUnderTest();

  /** A 20 s 640x360 video with two tracks imported into Full Sessions; the State item. */
  async function importLongVideo(frontend: ProtocolClient) {
    frontend.send('UpdateSettings', { contentFolder: under.content.path, clipPreset: 'slower', clipQualityCpu: 10, clipFps: 30 });
    await frontend.until('Settings', (settings) => path.resolve(settings.contentFolder) === path.resolve(under.content.path), 10000);
    const source = path.join(under.data.path, 'downloads', 'long match.mp4');
    await mkdir(path.dirname(source), { recursive: true });
    await generateVideo(ffmpegPath(), source, { seconds: 20, frameRate: 30, tones: [440, 660] });
    frontend.send('ImportFile', { sectionId: 'sessions', FilePaths: [source] });
    const state = await frontend.until('State', (next) => next.content.some((item) => item.isImported), 30000);
    return state.content.find((item) => item.isImported)!;
  }

  it('stops a running compression with the service: ffmpeg ended, no temporary file, the original kept, exit 0', async () => {
    const { client: frontend } = await under.connect();
    const imported = await importLongVideo(frontend);
    const filesBefore = await filesBelow(under.content.path);

    frontend.send('CompressVideo', { FilePath: imported.filePath });
    await frontend.next('CompressionProgress', (progress) => progress.progress > 0 && progress.progress < 100, 60000);
    expect((await processesMentioning(imported.filePath)).length).to.be.greaterThan(0);
    expect((await filesBelow(under.content.path)).some((file) => file.endsWith('.part'))).to.equal(true);

    expect(await under.process.stop()).to.deep.equal({ code: 0, signal: null });
    expect(await processesMentioning(imported.filePath)).to.deep.equal([]);
    expect(await filesBelow(under.content.path)).to.deep.equal(filesBefore);
  });

  it('never lists a clip whose job was killed with the service; its temporary files are removed at the next start', async () => {
    const { client: frontend } = await under.connect();
    const imported = await importLongVideo(frontend);
    const filesBefore = await filesBelow(under.content.path);

    // A muted track makes it a re-encode, slow at the slower preset: still running when killed.
    const segment = {
      id: 4242,
      startTime: 0.5,
      endTime: 19.5,
      fileName: imported.fileName,
      filePath: imported.filePath,
      type: imported.type,
      game: imported.game,
      mutedAudioTracks: [1],
    };
    frontend.send('CreateClip', { Segments: [segment] });
    await frontend.next('ClipProgress', (progress) => progress.progress > 0 && progress.progress < 100, 60000);
    const partial = (await filesBelow(under.content.path)).filter((file) => file.endsWith('.part'));
    expect(partial).to.have.length(1);
    await under.process.kill();

    const { state } = await under.connect();
    expect(state.content.filter((item) => item.type === 'Clip')).to.deep.equal([]);
    const filesAfter = await filesBelow(under.content.path);
    expect(filesAfter.filter((file) => file.endsWith('.part'))).to.deep.equal([]);
    expect(filesAfter).to.include.members(filesBefore);
    expect(await readdir(path.join(under.data.path, 'cache', 'clip-work')).catch(() => [])).to.deep.equal([]);
  });
});
