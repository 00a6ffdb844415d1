// Clips with the real service: a few seconds recorded, then CreateClip over the WebSocket gives a
// Clip item with progress up to 100, whose thumbnail and waveform are served as soon as it is listed;
// a path outside the content folder is refused.
import 'reflect-metadata';
import { expect } from 'chai';
import path from 'node:path';
import { parseDuration } from '@keyframe/core/protocol';
import { serviceUnderTest } from '../kit/service-under-test.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('clips', function () {
  this.timeout(60000);
  const under = serviceUnderTest();

  it('records a session, then clips part of it into Clips/<game>/ with ClipProgress ending at 100', async () => {
    const { client: frontend, state } = await under.connect();
    frontend.send('UpdateSettings', {
      resolution: '720p',
      frameRate: 30,
      recordingMode: 'Session',
      contentFolder: under.content.path,
      clipFps: 30,
    });
    await frontend.next('Settings');
    frontend.send('StartRecording');
    await frontend.next('State', (state) => state.recording !== null && state.preRecording === null, 15000);
    await sleep(4000);
    frontend.send('StopRecording');
    const saved = await frontend.next('State', (state) => state.recording === null && state.content.length === 1, 20000);
    const session = saved.content[0]!;

    const segment = {
      id: Date.now(),
      startTime: 1,
      endTime: 2.5,
      fileName: session.fileName,
      filePath: session.filePath,
      type: session.type,
      game: session.game,
      title: 'Best moment',
    };
    frontend.send('CreateClip', { Segments: [segment] });
    const done = await frontend.next('ClipProgress', (event) => event.progress === 100 || event.progress === -1, 30000);
    expect(done).to.deep.include({ id: segment.id, progress: 100, segments: [segment] });
    const listed = await frontend.next('State', (state) => state.content.some((item) => item.type === 'Clip'), 10000);
    const clip = listed.content.find((item) => item.type === 'Clip')!;
    expect(clip).to.deep.include({ title: 'Best moment', game: 'Manual Recording' });
    expect(path.posix.dirname(clip.filePath)).to.equal(path.join(under.content.path, 'Clips', 'Manual Recording').replaceAll('\\', '/'));
    expect(parseDuration(clip.duration)).to.be.closeTo(1.5, 1);
    // Listed before its artwork is made: the requests wait for it instead of finding nothing.
    const base = under.process.url.replace(/\/$/, '');
    const artwork = (route: string, file: string) => fetch(`${base}${route}?input=${encodeURIComponent(`${state.cacheFolder}/${file}`)}`);
    const [thumbnail, waveform] = await Promise.all([
      artwork('/api/thumbnail', `thumbnails/Clips/${clip.id}.jpeg`),
      artwork('/api/content', `waveforms/Clips/${clip.id}.peaks.json`),
    ]);
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).to.deep.equal([200, 'image/jpeg']);
    expect(((await waveform.json()) as { version: number }).version).to.equal(2);

    frontend.send('CreateClip', { Segments: [{ ...segment, id: segment.id + 1, filePath: `${under.content.path}/../../etc/passwd` }] });
    expect(await frontend.next('CommandRejected')).to.deep.include({ method: 'CreateClip', code: 'NotAllowed' });
    frontend.send('CancelClip', { id: 12345 });
    expect(await frontend.next('CommandRejected')).to.deep.include({ method: 'CancelClip', code: 'NotFound' });
  });
});
