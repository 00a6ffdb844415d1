// Incremental State with the real service over a real WebSocket: a `?state=patch` connection gets the full
// State once, then StatePatch events; its patched copy equals the full State that RequestState sends. The
// reference dialect and unknown values are refused at the upgrade.
import 'reflect-metadata';
import { expect } from 'chai';
import path from 'node:path';
import { ProtocolClient } from '@keyframe/integration-testkit';
import { patchedState, untilPatched } from '../kit/patched-state.js';
import { serviceUnderTest } from '../kit/service-under-test.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Incremental State', function () {
  this.timeout(60000);
  const under = serviceUnderTest();

  it('patches a recording, its bookmarks and library changes into a copy that equals the full State', async () => {
    await under.start();
    const frontend = await ProtocolClient.connect(`${under.process.url}?dialect=spec&state=patch`);
    await frontend.handshake();
    // A State may come before the NewConnection answer (the service may still be loading): only full ones after it count.
    const statesAtAnswer = frontend.all('State').length;
    frontend.send('UpdateSettings', { resolution: '720p', frameRate: 30, recordingMode: 'Session', contentFolder: under.content.path });
    await frontend.next('Settings');

    frontend.send('StartRecording');
    const running = await untilPatched(frontend, (state) => state.recording !== null && state.preRecording === null, 15000);
    frontend.send('AddBookmark', { FilePath: running.recording!.filePath!, ContentType: 'Session', Type: 'Kill', Time: '00:00:01', Id: 5 });
    await untilPatched(frontend, (state) => state.recording?.bookmarks.length === 1);
    await sleep(1500);
    frontend.send('StopRecording');
    const saved = await untilPatched(frontend, (state) => state.recording === null && state.content.length === 1, 20000);
    const item = saved.content[0]!;
    frontend.send('RenameContent', { FileName: item.fileName, ContentType: 'Session', Title: 'Ace' });
    const renamed = await untilPatched(frontend, (state) => state.content[0]?.title === 'Ace');
    const filePath = renamed.content[0]!.filePath;
    frontend.send('AddBookmark', { FilePath: filePath, ContentType: 'Session', Type: 'Manual', Time: '00:00:00.500', Id: 77 });
    await untilPatched(frontend, (state) => state.content[0]!.bookmarks.some((bookmark) => bookmark.id === 77));

    const patches = frontend.all('StatePatch');
    expect(frontend.all('State').length - statesAtAnswer, 'no full State after the NewConnection answer').to.equal(0);
    expect(patches.map((patch) => patch.sequence)).to.deep.equal(patches.map((_, index) => index + 1));
    expect(patches.at(-1)!.patch.length, 'a bookmark on one item').to.be.below(4);
    expect(path.basename(filePath)).to.equal('Ace.mp4');

    const copy = patchedState(frontend);
    frontend.send('RequestState');
    const full = await frontend.next('State');
    expect(copy).to.deep.equal(full);
    frontend.send('DeleteContent', { FileName: 'Ace', ContentType: 'Session' });
    const deleted = await frontend.next('StatePatch');
    expect(deleted.sequence, 'sequences restart after a full State').to.equal(1);
    expect(patchedState(frontend)!.content).to.deep.equal([]);
    expect(frontend.schemaViolations).to.deep.equal([]);
    await frontend.close();
  });

  it('refuses ?state=patch in the reference dialect and an unknown ?state= with 400, and a plain connection gets full States', async () => {
    const { client } = await under.connect();
    const url = under.process.url;
    for (const query of ['?dialect=reference&state=patch', '?state=diff']) {
      const refused = await ProtocolClient.connect(`${url}${query}`).then(
        () => undefined,
        (error: { statusCode?: number }) => error.statusCode,
      );
      expect(refused, query).to.equal(400);
    }
    expect(under.process.printed).to.include('Incremental State (?state=patch) is spoken in the spec dialect only');
    client.send('UpdateSettings', { frameRate: 30 });
    await client.next('Settings');
    client.send('RequestState');
    await client.next('State');
    expect(client.all('StatePatch')).to.deep.equal([]);
  });
});
