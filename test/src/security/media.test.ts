// Library media and the attack surface of a local service (issue 18): frame requests are read by a
// bounded pool of ffmpeg processes and cached, pages of other origins get nothing from the media
// routes, and a "video" that is really a playlist makes ffmpeg open nothing it names.
import 'reflect-metadata';
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { ContentItem } from '@keyframe/core/protocol';
import { generateVideo } from '@keyframe/core/testing';
import { CHROMIUM_PATH } from '../kit/browser.js';
import { importGeneratedVideo } from '../kit/imported-video.js';
import { ffmpegPath } from '../kit/processes.js';
import { type ProtocolClient } from '@keyframe/integration-testkit';
import { serviceUnderTest } from '../kit/service-under-test.js';

/** As `defaultDecoderPoolLimits`: one decode per core beyond the first, at most two. */
const POOL_SIZE = Math.max(1, Math.min(2, os.availableParallelism() - 1));

/** ffmpeg processes whose parent is `parent` and that read a frame for `/api/thumbnail?time=`. */
async function frameReaders(parent: number): Promise<number> {
  let count = 0;
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …: the command name may hold spaces, so read after its closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid !== parent) continue;
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes('image2pipe')) count++;
  }
  return count;
}

/** When a logged frame read ran: it is logged as it ends, with how long the decode took. */
function decodeSpan(line: string): { start: number; end: number } {
  const record = JSON.parse(line) as { time: string; fields: { tookMs: number } };
  const end = Date.parse(record.time);
  return { start: end - record.fields.tookMs, end };
}

/** The most spans running at one moment; spans that touch within the log's millisecond rounding do not count as overlapping. */
function mostAtOnce(spans: readonly { start: number; end: number }[]): number {
  const SLACK_MS = 2;
  return Math.max(
    0,
    ...spans.map((span) => spans.filter((other) => other.start < span.end - SLACK_MS && other.end > span.start + SLACK_MS).length),
  );
}

/** A server on loopback that answers `handle`, and every path asked of it. */
async function localServer(
  handle: (url: string) => { type: string; body: string } = () => ({ type: 'text/plain', body: 'nothing' }),
): Promise<{ server: Server; port: number; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(request.url ?? '');
    const { type, body } = handle(request.url ?? '');
    response.writeHead(200, { 'Content-Type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, asked };
}

const closed = (server: Server) => new Promise((resolve) => server.close(resolve));

/** The frame reads and cross-site refusals this suite counts are debug lines, which the log file leaves out by default. */
const DEBUG_LOG = { KEYFRAME_LOG_LEVEL: 'debug' };

describe('media security', function () {
  this.timeout(120000);
  const under = serviceUnderTest();
  const logLines = async (message: string) =>
    (await readFile(path.join(under.data.path, 'logs', 'keyframe.log'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes(`"message":"${message}"`));

  /** A library item of `seconds`, small frames, imported into the running service. */
  const libraryVideo = async (frontend: ProtocolClient, seconds: number): Promise<ContentItem> => {
    frontend.send('UpdateSettings', { contentFolder: under.content.path });
    await frontend.until('Settings', (settings) => path.resolve(settings.contentFolder) === path.resolve(under.content.path), 10000);
    return importGeneratedVideo(frontend, path.join(under.data.path, 'downloads'), 'match', { seconds, width: 320, height: 180 });
  };

  describe('frames under load', () => {
    it('answers 150 parallel frame requests with a frame or 503, runs no more ffmpeg at once than the pool, and reads a repeated frame once', async () => {
      const { client: frontend } = await under.connect(DEBUG_LOG);
      const item = await libraryVideo(frontend, 16);
      const base = `${under.process.url.replace(/\/$/, '')}/api/thumbnail?input=${encodeURIComponent(item.filePath)}&time=`;
      const servicePid = under.process.child.pid!;

      let most = 0;
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          most = Math.max(most, await frameReaders(servicePid));
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      })();
      const answers = await Promise.all(
        Array.from({ length: 150 }, async (_, index) => {
          const response = await fetch(`${base}${(index / 10).toFixed(1)}`);
          const body = Buffer.from(await response.arrayBuffer());
          return {
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            jpeg: body.subarray(0, 2).toString('hex') === 'ffd8',
          };
        }),
      );
      watching = false;
      await watcher;

      const ok = answers.filter((answer) => answer.status === 200);
      const busy = answers.filter((answer) => answer.status === 503);
      // On a quiet machine a decode can end between two looks at /proc; the log's decode spans miss none.
      const overlapping = mostAtOnce((await logLines('frame read')).map(decodeSpan));
      console.log(
        `      150 parallel frames: ${ok.length} × 200, ${busy.length} × 503, at most ${Math.max(most, overlapping)} ffmpeg at once (pool ${POOL_SIZE})`,
      );
      expect(answers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 503)).to.deep.equal([]);
      expect(ok.length).to.be.greaterThan(0);
      expect(ok.every((answer) => answer.jpeg)).to.equal(true);
      expect(busy.every((answer) => answer.retryAfter === '1')).to.equal(true);
      expect(most, 'frame readers seen in /proc at once').to.be.at.most(POOL_SIZE);
      expect(overlapping, 'decodes whose logged spans overlap').to.be.within(1, POOL_SIZE);

      // The same frame asked for at once and again later (times within a tenth of a second) is read once.
      const readsBefore = (await logLines('frame read')).length;
      const again = await Promise.all(
        ['15.52', '15.5', '15.48', '15.5', '15.51'].map((time) =>
          fetch(`${base}${time}`).then(async (response) => ({
            status: response.status,
            body: Buffer.from(await response.arrayBuffer()),
          })),
        ),
      );
      const later = Buffer.from(await (await fetch(`${base}15.5`)).arrayBuffer());
      const reads = (await logLines('frame read')).slice(readsBefore);
      console.log(`      6 asks for the frame at 15.5 s: ${reads.length} read by ffmpeg, ${6 - reads.length} from the cache`);
      expect(again.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200]);
      expect(again.every((answer) => answer.body.equals(later))).to.equal(true);
      expect(reads).to.have.length(1);
      // A frame of the first batch is served from the cache too.
      const firstOk = answers.findIndex((answer) => answer.status === 200);
      expect((await fetch(`${base}${(firstOk / 10).toFixed(1)}`)).status).to.equal(200);
      expect((await logLines('frame read')).length).to.equal(readsBefore + 1);
    });
  });

  describe('pages of other origins', () => {
    it('a page on another loopback port gets no picture, video or data from the library, while curl and the own pages still do', async () => {
      const { client: frontend, state } = await under.connect(DEBUG_LOG);
      const item = await libraryVideo(frontend, 3);
      const service = under.process.url.replace(/\/$/, '');
      const frame = `${service}/api/thumbnail?input=${encodeURIComponent(item.filePath)}&time=1`;
      const card = `${service}/api/thumbnail?input=${encodeURIComponent(`${state.cacheFolder}/thumbnails/Full Sessions/${item.id}.jpeg`)}`;
      const video = `${service}/api/content?input=${encodeURIComponent(item.filePath)}`;
      const page = `<!doctype html><html><body>
        <img id="frame" src="${frame}"><img id="card" src="${card}"><img id="hidden" referrerpolicy="no-referrer" src="${frame}&x=1">
        <video id="video" src="${video}" preload="auto" muted></video>
        <script>window.fetched = fetch(${JSON.stringify(video)}).then((response) => 'status ' + response.status, (error) => 'failed: ' + error.message);</script>
      </body></html>`;
      const foreign = await localServer(() => ({ type: 'text/html', body: page }));
      const refusedBefore = (await logLines('cross-site media request refused')).length;
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
      try {
        const tab = await browser.newPage();
        const seen: { url: string; status: number; headers: Record<string, string> }[] = [];
        tab.on('response', (response) => {
          if (response.url().startsWith(service))
            seen.push({ url: response.url(), status: response.status(), headers: response.request().headers() });
        });
        await tab.goto(`http://127.0.0.1:${foreign.port}/`, { waitUntil: 'load' });
        // Page scripts as text: the test code is not compiled against the DOM.
        const fetched = (await tab.evaluate('window.fetched')) as string;
        await tab.waitForFunction('document.getElementById("video").error !== null', undefined, { timeout: 15000 });
        const images = (await tab.evaluate(
          '["frame", "card", "hidden"].map((id) => document.getElementById(id).naturalWidth)',
        )) as number[];
        expect(images).to.deep.equal([0, 0, 0]);
        // The service's Origin check answers 403 without CORS headers: the page sees a failed fetch.
        expect(fetched).to.match(/^(status 403|failed: )/);
        const refused = (await logLines('cross-site media request refused')).slice(refusedBefore);
        // The img tags, the video and possibly its retries; the fetch is refused by the Origin check before the media routes.
        expect(refused.length).to.be.at.least(4);
        expect(seen.length).to.be.at.least(4);
        expect(
          seen.every((response) => response.status === 403),
          JSON.stringify(seen),
        ).to.equal(true);

        // The same request without a browser's headers (a desktop host, curl) is served, as are the service's own pages.
        const asChromium = seen.find((response) => response.url === frame)!.headers;
        expect((await fetch(frame, { headers: { referer: asChromium.referer!, 'sec-fetch-site': 'same-site' } })).status).to.equal(403);
        expect((await fetch(frame)).status).to.equal(200);
        expect((await fetch(card, { headers: { referer: `${service}/`, 'sec-fetch-site': 'same-origin' } })).status).to.equal(200);
        const range = await fetch(video, {
          headers: { range: 'bytes=0-1', referer: `${service}/#/video/x`, 'sec-fetch-site': 'same-origin' },
        });
        expect(range.status).to.equal(206);
      } finally {
        await browser.close();
        await closed(foreign.server);
      }
    });
  });

  describe('files that name other files', () => {
    it('refuses to import playlists posing as videos, and opens nothing they name', async () => {
      const frontend = await under.start(DEBUG_LOG);
      await frontend.handshake();
      frontend.send('UpdateSettings', { contentFolder: under.content.path });
      await frontend.until('Settings', (settings) => path.resolve(settings.contentFolder) === path.resolve(under.content.path), 10000);
      const listening = await localServer();
      try {
        const downloads = path.join(under.data.path, 'downloads');
        const elsewhere = path.join(under.data.path, 'private', 'not-for-the-library.mp4');
        await mkdir(path.dirname(elsewhere), { recursive: true });
        await mkdir(downloads, { recursive: true });
        await generateVideo(ffmpegPath(), elsewhere, { seconds: 2, width: 320, height: 180 });
        const remote = `http://127.0.0.1:${listening.port}`;
        const hls = (segments: string[]) =>
          `#EXTM3U\n#EXT-X-TARGETDURATION:2\n${segments.map((segment) => `#EXTINF:2,\n${segment}\n`).join('')}#EXT-X-ENDLIST\n`;
        const traps = {
          'playlist.m3u8': hls([elsewhere, `${remote}/segment.ts`]),
          'remote.m3u8': hls([`${remote}/first.ts`]),
          'posing.mp4': hls([`file:${elsewhere}`, `${remote}/posing.ts`]),
          'list.mp4': `ffconcat version 1.0\nfile '${remote}/concat.mp4'\nfile '${elsewhere}'\n`,
        };
        for (const [name, text] of Object.entries(traps)) await writeFile(path.join(downloads, name), text);

        frontend.send('ImportFile', { sectionId: 'sessions', FilePaths: Object.keys(traps).map((name) => path.join(downloads, name)) });
        const finished = await frontend.next(
          'ImportProgress',
          (progress) => progress.fileName === 'Finished' || progress.fileName === 'Failed',
          60000,
        );
        expect(finished).to.deep.include({ status: 'error', message: 'Completed: 0 successful, 4 failed' });
        const failures = frontend.all('ImportProgress').filter((progress) => progress.status === 'error' && progress.fileName !== 'Failed');
        expect(failures.map((progress) => progress.message)).to.deep.equal(
          Object.keys(traps).map((name) => `Could not import ${name}: it is not a video file Keyframe can read`),
        );
        expect(listening.asked).to.deep.equal([]);
        expect(
          await readdir(under.content.path, { recursive: true }).then((entries) => entries.filter((entry) => /\.(mp4|m3u8)$/.test(entry))),
        ).to.deep.equal([]);
        expect(frontend.schemaViolations).to.deep.equal([]);
      } finally {
        await closed(listening.server);
      }
    });
  });
});
