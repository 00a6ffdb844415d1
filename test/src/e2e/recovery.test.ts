// Crash recovery with the real service: a recording killed with SIGKILL is offered after the next
// start, recovered into the library as a regular MP4, and never offered again; orphans can be deleted.
import 'reflect-metadata';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseDuration } from '@keyframe/core/protocol';
import { ProtocolClient } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';

function ffprobePath(): string {
  if (process.env.FFPROBE_PATH) return process.env.FFPROBE_PATH;
  const fromCore = createRequire(createRequire(import.meta.url).resolve('@keyframe/core/package.json'));
  return (fromCore('@ffprobe-installer/ffprobe') as { path: string }).path;
}

const probeDuration = (file: string) =>
  new Promise<number>((resolve, reject) => {
    execFile(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(Number.parseFloat(stdout)),
    );
  });

/** Top-level MP4 boxes, and whether `moov` holds `mvex` (a fragmented file). */
async function mp4Boxes(file: string): Promise<{ boxes: string[]; fragmented: boolean }> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const boxes: string[] = [];
    let fragmented = false;
    const header = Buffer.alloc(16);
    for (let offset = 0; offset + 8 <= size;) {
      await handle.read(header, 0, 16, offset);
      let length = header.readUInt32BE(0);
      const type = header.toString('latin1', 4, 8);
      let headerLength = 8;
      if (length === 1) {
        length = Number(header.readBigUInt64BE(8));
        headerLength = 16;
      }
      if (length === 0) length = size - offset;
      if (length < headerLength) break;
      boxes.push(type);
      if (type === 'moof') fragmented = true;
      if (type === 'moov') {
        const body = Buffer.alloc(length - headerLength);
        await handle.read(body, 0, body.length, offset + headerLength);
        for (let inner = 0; inner + 8 <= body.length;) {
          if (body.toString('latin1', inner + 4, inner + 8) === 'mvex') fragmented = true;
          const innerLength = body.readUInt32BE(inner);
          if (innerLength < 8) break;
          inner += innerLength;
        }
      }
      offset += length;
    }
    return { boxes, fragmented };
  } finally {
    await handle.close();
  }
}

const sleepUntil = (time: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));

describe('recovery', function () {
  this.timeout(90000);
  const under = serviceUnderTest();

  const start = () => under.start();
  /** A round trip: events caused by what was sent before have had time to arrive (handlers may still run). */
  const settle = async (frontend: ProtocolClient) => {
    frontend.sendRaw('ping');
    await frontend.next('pong');
  };

  it('offers a recording killed mid-way after the next NewConnection, recovers it as a regular MP4, then never again', async () => {
    let frontend = await start();
    await frontend.handshake();
    frontend.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: under.content.path });
    await frontend.next('Settings');
    frontend.send('StartRecording');
    const running = await frontend.next('State', (state) => state.recording !== null && state.preRecording === null, 15000);
    const startedAt = Date.parse(running.recording!.startTime);
    await sleepUntil(startedAt + 4000);
    await under.process.kill();
    const recordedSeconds = (Date.now() - startedAt) / 1000;
    const [cacheFile] = await readdir(path.join(under.data.path, 'cache', 'recordings'));
    expect(cacheFile).to.match(/^\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4$/);

    frontend = await start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      frontend.events.filter((event) => event.method === 'RecoveryPrompt'),
      'no prompt before NewConnection',
    ).to.deep.equal([]);
    const { state } = await frontend.handshake();
    expect(state.content).to.deep.equal([]);
    const prompt = await frontend.next('RecoveryPrompt');
    expect(prompt.totalCount).to.equal(1);
    const [file] = prompt.files;
    expect(file).to.deep.include({
      fileName: cacheFile,
      filePath: path.join(under.data.path, 'cache', 'recordings', cacheFile!).replaceAll('\\', '/'),
      type: 'Session',
      typeLabel: 'Session Recording',
      detectedGame: null,
    });
    expect(file!.recoveryId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(file!.fileSize).to.match(/^\d+\.\d\d MB$/);

    frontend.send('RecoveryConfirm', { recoveryId: 'not-an-offered-id', action: 'recover' });
    expect(await frontend.next('CommandRejected')).to.deep.include({ method: 'RecoveryConfirm', code: 'NotFound' });

    frontend.send('RecoveryConfirm', { recoveryId: file!.recoveryId, action: 'recover', gameOverride: 'My Game' });
    const recovered = await frontend.next('State', (next) => next.content.some((listed) => listed.game === 'My Game'), 30000);
    const item = recovered.content.find((listed) => listed.game === 'My Game')!;
    expect(item).to.deep.include({ type: 'Session', game: 'My Game', fileName: path.basename(cacheFile!, '.mp4') });
    expect(item.filePath).to.equal(`${under.content.path.replaceAll('\\', '/')}/Full Sessions/My Game/${cacheFile}`);
    const probed = await probeDuration(item.filePath);
    expect(probed, `probed duration of ${recordedSeconds.toFixed(2)} s recorded`).to.be.at.least(recordedSeconds - 2);
    expect(parseDuration(item.duration)).to.be.closeTo(probed, 0.1);
    const layout = await mp4Boxes(item.filePath);
    expect(layout.fragmented, `boxes ${layout.boxes.join(' ')}`).to.equal(false);
    expect(layout.boxes.indexOf('moov'), `boxes ${layout.boxes.join(' ')}`).to.be.within(0, layout.boxes.indexOf('mdat'));
    const left = await readdir(path.join(under.data.path, 'cache', 'recordings'));
    expect(left).to.not.include(cacheFile);
    expect(await readdir(path.join(under.data.path, 'cache', 'thumbnails', 'Full Sessions'))).to.deep.equal([`${item.id}.jpeg`]);
    expect(frontend.schemaViolations).to.deep.equal([]);
    console.log(
      `      recorded ${recordedSeconds.toFixed(2)} s before kill -9; recovered ${probed.toFixed(3)} s; boxes ${layout.boxes.join(' ')}`,
    );

    await under.client!.close();
    await under.process.stop();
    frontend = await start();
    const again = await frontend.handshake();
    await settle(frontend);
    expect(again.state.content.map((listed) => listed.id)).to.include(item.id);
    expect(frontend.events.filter((event) => event.method === 'RecoveryPrompt')).to.deep.equal([]);
  });

  it('deletes an orphan on request, offers a skipped one again at the next start', async () => {
    let frontend = await start();
    await frontend.handshake();
    frontend.send('UpdateSettings', { contentFolder: under.content.path });
    await frontend.next('Settings');
    await under.client!.close();
    await under.process.stop();
    const doomed = path.join(under.content.path, 'Clips', 'Arena', 'doomed.mp4');
    const kept = path.join(under.content.path, 'Replay Buffers', 'kept.mp4');
    for (const file of [doomed, kept]) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, Buffer.alloc(4096));
    }

    frontend = await start();
    await frontend.handshake();
    const prompt = await frontend.next('RecoveryPrompt');
    expect(
      prompt.files.map(({ fileName, type, typeLabel, detectedGame, fileSize }) => ({ fileName, type, typeLabel, detectedGame, fileSize })),
    ).to.deep.equal([
      { fileName: 'doomed.mp4', type: 'Clip', typeLabel: 'Clip', detectedGame: 'Arena', fileSize: '0.00 MB' },
      { fileName: 'kept.mp4', type: 'Buffer', typeLabel: 'Replay Buffer', detectedGame: null, fileSize: '0.00 MB' },
    ]);
    const idOf = (name: string) => prompt.files.find((file) => file.fileName === name)!.recoveryId;
    frontend.send('RecoveryConfirm', { recoveryId: idOf('doomed.mp4'), action: 'delete' });
    frontend.send('RecoveryConfirm', { recoveryId: idOf('kept.mp4'), action: 'skip' });
    await settle(frontend);
    for (let attempt = 0; attempt < 50 && existsSync(doomed); attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(doomed)).to.equal(false);
    expect(existsSync(kept)).to.equal(true);
    expect(frontend.events.filter((event) => event.method === 'CommandRejected')).to.deep.equal([]);

    // Answered files are not offered to a frontend that connects later in the same run.
    const second = await ProtocolClient.connect(under.process.url);
    under.client = second;
    await second.handshake();
    await settle(second);
    expect(second.events.filter((event) => event.method === 'RecoveryPrompt')).to.deep.equal([]);

    await second.close();
    await under.process.stop();
    frontend = await start();
    await frontend.handshake();
    expect((await frontend.next('RecoveryPrompt')).files.map((file) => file.fileName)).to.deep.equal(['kept.mp4']);
  });
});
