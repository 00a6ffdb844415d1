// Protocol fuzz against the real service: generated bad frames (random bytes and text, truncated and
// deeply nested JSON, every command with missing/extra/wrong-typed/huge Parameters, unknown methods,
// binary frames, frames over 1 MiB) and rapid connect/disconnect. The process must never exit, every
// frame must get its own CommandRejected with the right code, memory must come back near where it
// started, and a well-formed NewConnection afterwards must still answer correctly.
// 2,000 frames in `npm test`, 100,000 under `npm run test:long`; KEYFRAME_FUZZ_FRAMES overrides.
import 'reflect-metadata';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { WebSocket } from 'ws';
import { folderChecksum } from '../kit/folder-checksum.js';
import { FrameFuzzer, type FuzzFrame } from '../kit/frame-fuzzer.js';
import { mebibytes, processSamplingSupported, sampleProcess, sampleUntil, type ProcessSample } from '../kit/process-sampler.js';
import { ProtocolClient, type ReceivedEvent } from '@keyframe/integration-testkit';
import { SeededRandom } from '../kit/seeded-random.js';
import { serviceUnderTest } from '../kit/service-under-test.js';
import { longTestsSelected } from '../kit/test-length.js';

const FRAMES = Number(process.env.KEYFRAME_FUZZ_FRAMES) || (longTestsSelected() ? 100_000 : 2_000);
const WARM_UP_FRAMES = 1_000;
const BATCH = 200;
const CONNECTION_CYCLES = longTestsSelected() ? 2_000 : 200;
/**
 * RSS may end at most this far above the warmed-up baseline. V8 keeps freed heap pages and the
 * allocator keeps freed buffers for reuse, so "back to baseline" means no growth in proportion to
 * the frames sent: 100,000 frames of ~10 KiB each (1 GB through the process) leaking even 1% would
 * be +10 MiB per 1,000 frames; a fixed allowance of 48 MiB (one old-space growth step plus the
 * largest frame buffers) or 25% catches that without failing on the heap's normal slack.
 */
const RSS_ALLOWANCE = (baseline: number) => Math.max(48 * 1024 * 1024, baseline * 0.25);

describe('hardening: protocol fuzz', function () {
  this.timeout(longTestsSelected() ? 3_600_000 : 300_000);
  const under = serviceUnderTest();
  const seed = SeededRandom.seedFromEnvironment();

  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(`      replay with KEYFRAME_FUZZ_SEED=${seed}`);
  });

  /** Sends frames in batches, waiting for each batch's refusals and checking each; counts them by kind and code. */
  async function sendAndCheck(client: ProtocolClient, frames: FuzzFrame[], counts: Map<string, number>): Promise<void> {
    const rejectionsBefore = client.all('CommandRejected').length;
    for (let start = 0; start < frames.length; start += BATCH) {
      const batch = frames.slice(start, start + BATCH);
      for (const frame of batch) client.sendRaw(frame.data, { binary: frame.binary });
      const rejections = await rejectionsReach(client, rejectionsBefore + start + batch.length);
      batch.forEach((frame, index) => {
        const got = rejections[rejectionsBefore + start + index]!;
        const where = `frame ${start + index} (${frame.kind}, seed ${seed}): ${preview(frame.data)}`;
        expect({ code: got.code, method: got.method }, where).to.deep.equal(frame.expected);
        counts.set(`${frame.kind} -> ${got.code}`, (counts.get(`${frame.kind} -> ${got.code}`) ?? 0) + 1);
      });
    }
  }

  it(`refuses each of ${FRAMES.toLocaleString('en')} generated frames with the right code, without exiting or keeping the memory`, async () => {
    const { client } = await under.connect();
    client.send('UpdateSettings', { contentFolder: under.content.path });
    await client.next('Settings');
    const contentBefore = await folderChecksum(under.content.path);
    const fuzzer = new FrameFuzzer(seed);
    const counts = new Map<string, number>();
    const generate = (count: number) => Array.from({ length: count }, () => fuzzer.next());

    await sendAndCheck(client, generate(WARM_UP_FRAMES), counts);
    const pid = under.process.child.pid!;
    const baseline = processSamplingSupported ? await settledSample(pid) : undefined;
    const started = Date.now();
    let peak = baseline?.rssBytes ?? 0;
    for (let sent = WARM_UP_FRAMES; sent < FRAMES; sent += 1_000) {
      await sendAndCheck(client, generate(Math.min(1_000, FRAMES - sent)), counts);
      expect(under.process.isRunning, `service exited after ${sent} frames (seed ${seed})`).to.equal(true);
      if (baseline) peak = Math.max(peak, (await sampleProcess(pid)).rssBytes);
    }
    const seconds = (Date.now() - started) / 1000;

    const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
    expect(total).to.equal(FRAMES);
    for (const code of ['MalformedMessage', 'UnknownMethod', 'InvalidParameters']) {
      expect(
        [...counts.keys()].some((key) => key.endsWith(code)),
        `some ${code}`,
      ).to.equal(true);
    }
    console.log(
      `      seed ${seed}: ${total} frames refused in ${seconds.toFixed(1)} s (${Math.round((FRAMES - WARM_UP_FRAMES) / seconds)}/s)`,
    );
    for (const [key, count] of [...counts].sort()) console.log(`        ${key}: ${count}`);

    if (baseline) {
      const limit = baseline.rssBytes + RSS_ALLOWANCE(baseline.rssBytes);
      const fdLimit = baseline.openFileDescriptors + 5;
      // Both settle: sockets of the fuzz's connections and pipes of a start-up probe close a moment later.
      const after = await sampleUntil(pid, (sample) => sample.rssBytes <= limit && sample.openFileDescriptors <= fdLimit, {
        timeoutMs: 30_000,
      });
      console.log(
        `      RSS: baseline ${mebibytes(baseline.rssBytes)}, peak ${mebibytes(peak)}, settled ${mebibytes(after.rssBytes)} (limit ${mebibytes(limit)}); fds ${baseline.openFileDescriptors} -> ${after.openFileDescriptors}`,
      );
      expect(after.rssBytes, 'RSS after the fuzz').to.be.at.most(limit);
      expect(after.openFileDescriptors, 'open fds after the fuzz').to.be.at.most(fdLimit);
    }
    expect(await folderChecksum(under.content.path), 'content folder').to.equal(contentBefore);
    expect(client.schemaViolations).to.deep.equal([]);

    const { settings, state } = await client.handshake();
    expect(settings.contentFolder).to.equal(under.content.path);
    expect(state.recording).to.equal(null);
    expect(under.process.isRunning).to.equal(true);
  });

  it(`survives ${CONNECTION_CYCLES} rapid connects and disconnects, half-sent and oversized frames; the next frontend is answered`, async () => {
    await under.connect();
    const random = new SeededRandom(seed);
    const url = under.process.url.replace(/^http/, 'ws');
    const closes = new Map<string, number>();
    for (let cycle = 0; cycle < CONNECTION_CYCLES; cycle++) {
      const outcome = await connectionCycle(url, random);
      closes.set(outcome, (closes.get(outcome) ?? 0) + 1);
    }
    console.log(
      `      seed ${seed}: ${[...closes]
        .sort()
        .map(([outcome, count]) => `${outcome} ×${count}`)
        .join(', ')}`,
    );
    expect(closes.get('invalid UTF-8 -> 1007') ?? 0, 'invalid UTF-8 closes with 1007').to.be.greaterThan(0);
    expect(closes.get('4 MiB+ frame -> 1009') ?? 0, 'a frame over 4 MiB closes with 1009').to.be.greaterThan(0);
    expect([...closes.keys()].filter((outcome) => outcome.startsWith('unexpected'))).to.deep.equal([]);
    expect(under.process.isRunning).to.equal(true);

    const frontend = await ProtocolClient.connect(under.process.url);
    under.client = frontend;
    const { settings, state } = await frontend.handshake();
    expect(settings.frameRate).to.be.a('number');
    expect(state.recording).to.equal(null);
    expect(frontend.schemaViolations).to.deep.equal([]);
  });
});

/** The CommandRejected events once there are `count` of them. */
async function rejectionsReach(
  client: ProtocolClient,
  count: number,
  timeoutMs = 60_000,
): Promise<ReceivedEvent<'CommandRejected'>['content'][]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rejections = client.all('CommandRejected');
    if (rejections.length >= count) return rejections;
    if (!client.isOpen)
      throw new Error(`the connection closed after ${rejections.length} of ${count} refusals: ${JSON.stringify(await client.closed)}`);
    if (Date.now() > deadline) throw new Error(`only ${rejections.length} of ${count} refusals within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** RSS once two readings a second apart agree within 2 MiB (or after 10 s). */
async function settledSample(pid: number): Promise<ProcessSample> {
  let previous = await sampleProcess(pid);
  return sampleUntil(
    pid,
    (sample) => {
      const steady = Math.abs(sample.rssBytes - previous.rssBytes) < 2 * 1024 * 1024;
      previous = sample;
      return steady;
    },
    { timeoutMs: 10_000, intervalMs: 1000 },
  );
}

const preview = (data: string | Buffer) =>
  typeof data === 'string' ? JSON.stringify(data.slice(0, 160)) : `<${data.length} binary bytes>`;

/** One short-lived connection that misbehaves in one of several ways; what became of it. */
async function connectionCycle(url: string, random: SeededRandom): Promise<string> {
  const kind = random.pick([
    'close at once',
    'terminate at once',
    'abort while connecting',
    'half a frame then cut',
    'invalid UTF-8',
    '4 MiB+ frame',
  ] as const);
  if (kind === 'half a frame then cut') {
    await halfFrameThenCut(url);
    return kind;
  }
  const socket = new WebSocket(url);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  socket.on('error', () => undefined);
  if (kind === 'abort while connecting') {
    socket.terminate();
    await closed;
    return kind;
  }
  const opened = await new Promise<boolean>((resolve) => {
    socket.once('open', () => resolve(true));
    socket.once('close', () => resolve(false));
  });
  if (!opened) return `unexpected: ${kind} never opened`;
  switch (kind) {
    case 'close at once':
      socket.close();
      return `${kind} -> ${await closed}`;
    case 'terminate at once':
      socket.terminate();
      await closed;
      return kind;
    case 'invalid UTF-8':
      socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d]), { binary: false });
      return `${kind} -> ${await closed}`;
    case '4 MiB+ frame':
      socket.send(Buffer.alloc(4 * 1024 * 1024 + 1 + random.integer(0, 1024), 0x20), { binary: false });
      return `${kind} -> ${await closed}`;
  }
}

/** A raw upgrade, then a frame header announcing 256 bytes, a few of them, and the TCP connection cut. */
async function halfFrameThenCut(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(
    `GET / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await once(socket, 'data');
  const maskedTextHeader = Buffer.from([0x81, 0x80 | 126, 0x01, 0x00, 0, 0, 0, 0]);
  socket.end(Buffer.concat([maskedTextHeader, Buffer.from('{"Method":')]));
  socket.destroy();
}
