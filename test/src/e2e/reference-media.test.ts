// Media where the reference frontend looks (protocol-gaps §10, issue 21): with the reference dialect as the
// default, the media routes also answer on the reference media port, artwork at the paths that client builds
// from an item's fileName (after a rename too), with CORS for an allowed page and the main port's rules for
// everyone else; a taken port is not fatal; with the spec default nothing listens there until the wireDialect
// setting becomes reference.
import 'reflect-metadata';
import { expect } from 'chai';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';
import { CHROMIUM_PATH } from '../kit/browser.js';
import { importGeneratedVideo } from '../kit/imported-video.js';

/** A port nothing listens on a moment later. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A GET (or other method) with exactly these headers, Host included, which fetch does not let a caller set. */
function raw(port: number, pathAndQuery: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const asked = httpRequest({ host: '127.0.0.1', port, path: pathAndQuery, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    asked.on('error', reject);
    asked.end();
  });
}

const mediaPortOf = (service: ServiceProcess) => Number(/Media:\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(service.printed)?.[1]) || undefined;

describe('reference media port', function () {
  this.timeout(90_000);
  let data: TempFolder;
  let content: TempFolder;
  let service: ServiceProcess | undefined;
  let frontend: ProtocolClient | undefined;

  beforeEach(async () => {
    data = await createTempFolder();
    content = await createTempFolder('keyframe-content-');
  });
  afterEach(async () => {
    await frontend?.close();
    await service?.stop();
    [frontend, service] = [undefined, undefined];
    await data.remove();
    await content.remove();
  });

  /** The service with these variables, and a client that speaks SPEC's names whatever the default. */
  const start = async (env: NodeJS.ProcessEnv) => {
    service = await ServiceProcess.start({ dataFolder: data.path, legacyPort: 'off', env: { KEYFRAME_CAPTURE: 'synthetic', ...env } });
    frontend = await ProtocolClient.connect(`${service.url}?dialect=spec`);
    const { state } = await frontend.handshake();
    return { service, frontend, state };
  };

  it('serves videos, frames and artwork by fileName (after a rename too) on the media port, to allowed pages only', async () => {
    const pagePort = await freePort();
    const allowedRange = `http://localhost:${pagePort - 1}-${pagePort + 1}`;
    const { service, frontend, state } = await start({
      KEYFRAME_DIALECT: 'reference',
      KEYFRAME_REFERENCE_MEDIA_PORT: '0',
      KEYFRAME_ALLOWED_ORIGINS: allowedRange,
    });
    const mediaPort = mediaPortOf(service)!;
    expect(mediaPort, service.printed).to.be.a('number');
    frontend.send('UpdateSettings', { contentFolder: content.path });
    await frontend.until('Settings', (settings) => path.resolve(settings.contentFolder) === path.resolve(content.path), 10_000);
    const item = await importGeneratedVideo(frontend, path.join(data.path, 'downloads'), 'match one', {
      seconds: 3,
      width: 320,
      height: 180,
    });
    const media = `http://localhost:${mediaPort}`;
    const url = (route: string, input: string, extra = '') => `${media}${route}?input=${encodeURIComponent(input)}${extra}`;
    const byName = (fileName: string) => ({
      thumbnail: url('/api/thumbnail', `${state.cacheFolder}/thumbnails/Full Sessions/${fileName}.jpeg`),
      waveform: url('/api/content', `${state.cacheFolder}/waveforms/Full Sessions/${fileName}.peaks.json`, '&type=session'),
    });
    const storedThumbnail = await readFile(path.join(state.cacheFolder, 'thumbnails', 'Full Sessions', `${item.id}.jpeg`));
    const size = (await readFile(item.filePath)).length;

    const sizeRead = await fetch(url('/api/content', item.filePath), { headers: { Range: 'bytes=0-1' } });
    expect(sizeRead.status).to.equal(206);
    expect(sizeRead.headers.get('content-range')).to.equal(`bytes 0-1/${size}`);
    expect((await fetch(url('/api/content', item.filePath), { headers: { Range: `bytes=${size}-` } })).status).to.equal(416);
    const head = await fetch(url('/api/content', item.filePath, '&type=session'), { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).to.deep.equal([200, String(size)]);
    const thumbnail = await fetch(byName('match one').thumbnail);
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).to.deep.equal([200, 'image/jpeg']);
    expect(Buffer.from(await thumbnail.arrayBuffer()).equals(storedThumbnail)).to.equal(true);
    const waveform = await fetch(byName('match one').waveform);
    expect([waveform.status, waveform.headers.get('content-type')]).to.deep.equal([200, 'application/json']);
    expect(((await waveform.json()) as { version: number }).version).to.equal(2);
    const frame = await fetch(url('/api/thumbnail', item.filePath, '&time=1.5'));
    expect(frame.status).to.equal(200);
    expect(
      Buffer.from(await frame.arrayBuffer())
        .subarray(0, 2)
        .toString('hex'),
    ).to.equal('ffd8');

    // A page of an allowed origin fetches a thumbnail, a frame and the size of a video, as the reference client does.
    const pageOrigin = `http://localhost:${pagePort}`;
    const script = `window.results = (async () => {
      const thumbnail = await fetch(${JSON.stringify(byName('match one').thumbnail)});
      const bytes = (await thumbnail.arrayBuffer()).byteLength;
      const sizeRead = await fetch(${JSON.stringify(url('/api/content', item.filePath))}, { headers: { Range: 'bytes=0-1' } });
      const frame = await fetch(${JSON.stringify(url('/api/thumbnail', item.filePath, '&time=1.5'))});
      return [thumbnail.status, bytes, sizeRead.status, sizeRead.headers.get('content-range'), frame.status];
    })().catch((error) => 'failed: ' + error.message);`;
    const page: Server = createServer((_request, response) =>
      response.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html><script>${script}</script>`),
    );
    await new Promise<void>((resolve) => page.listen(pagePort, '127.0.0.1', resolve));
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const tab = await browser.newPage();
      await tab.goto(`${pageOrigin}/`, { waitUntil: 'load' });
      // Page scripts as text: the test code is not compiled against the DOM.
      expect(await tab.evaluate('window.results')).to.deep.equal([200, storedThumbnail.length, 206, `bytes 0-1/${size}`, 200]);
    } finally {
      await browser.close();
      await new Promise((resolve) => page.close(resolve));
    }

    // The same answers by header: the allowed origin echoed, its preflight answered; any other origin refused.
    const allowed = await fetch(byName('match one').thumbnail, { headers: { Origin: pageOrigin } });
    expect([allowed.status, allowed.headers.get('access-control-allow-origin'), allowed.headers.get('vary')]).to.deep.equal([
      200,
      pageOrigin,
      'Origin',
    ]);
    const preflight = (origin: string) =>
      fetch(url('/api/content', item.filePath), {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'range' },
      });
    const answered = await preflight(pageOrigin);
    expect(answered.status).to.equal(204);
    expect(answered.headers.get('access-control-allow-origin')).to.equal(pageOrigin);
    expect(answered.headers.get('access-control-allow-methods')).to.equal('GET, HEAD');
    expect(answered.headers.get('access-control-allow-headers')).to.equal('Range');
    const foreign = `http://localhost:${pagePort + 2}`;
    for (const refused of [await preflight(foreign), await fetch(byName('match one').thumbnail, { headers: { Origin: foreign } })]) {
      expect([refused.status, refused.headers.get('access-control-allow-origin')]).to.deep.equal([403, null]);
    }
    // The main port echoes an allowed origin too, and no longer answers `*`.
    const mainPort = new URL(service.url).port;
    const onMain = await fetch(byName('match one').thumbnail.replace(`:${mediaPort}/`, `:${mainPort}/`), {
      headers: { Origin: pageOrigin },
    });
    expect([onMain.status, onMain.headers.get('access-control-allow-origin')]).to.deep.equal([200, pageOrigin]);

    // DNS rebinding, other paths and methods get what the main port gives them.
    const thumbnailPath = new URL(byName('match one').thumbnail).pathname + new URL(byName('match one').thumbnail).search;
    expect((await raw(mediaPort, thumbnailPath, { Host: `localhost:${mediaPort}` })).status).to.equal(200);
    expect((await raw(mediaPort, thumbnailPath, { Host: `rebound.example:${mediaPort}` })).status).to.equal(403);
    expect((await raw(mediaPort, thumbnailPath, { Host: `localhost:${mainPort}` })).status).to.equal(403);
    expect((await raw(mediaPort, thumbnailPath, { Host: `localhost:${mediaPort}` }, 'POST')).status).to.equal(405);
    const outside = [
      url('/api/thumbnail', `${state.cacheFolder}/../settings.jpeg`),
      url('/api/thumbnail', `${state.cacheFolder}/metadata/Full Sessions/match one.jpeg`),
      url('/api/content', `${state.cacheFolder}/metadata/Full Sessions/${item.id}.json`),
      url('/api/content', '/etc/passwd.mp4'),
      `${media}/`,
      `${media}/index.html`,
      `${media}/api/other`,
    ];
    for (const address of outside) expect((await fetch(address)).status, address).to.equal(404);

    // Renamed: the client builds the paths from the new fileName.
    frontend.send('RenameContent', { FileName: 'match one', ContentType: 'Session', Title: 'final round' });
    await frontend.until('State', (next) => next.content.some((entry) => entry.fileName === 'final round'), 10_000);
    expect((await fetch(byName('final round').thumbnail)).status).to.equal(200);
    expect((await fetch(byName('final round').waveform)).status).to.equal(200);
    expect((await fetch(byName('match one').thumbnail)).status).to.equal(404);
  });

  it('starts when the reference media port is taken, and says which option changes it, in the log and to the frontend', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const { service, frontend } = await start({ KEYFRAME_DIALECT: 'reference', KEYFRAME_REFERENCE_MEDIA_PORT: String(port) });
      expect(mediaPortOf(service)).to.equal(undefined);
      expect(service.printed).to.match(/reference media port unavailable.*--reference-media-port/);
      const modal = await frontend.until('ShowModal', (shown) => shown.title === 'Videos cannot be shown', 5000);
      expect(modal.description).to.include(`port ${port}`).and.include('--reference-media-port');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('listens nowhere with the spec default or with the port off, and starts when the wireDialect setting becomes reference or a frontend asks for that dialect', async () => {
    const port = await freePort();
    const off = await start({ KEYFRAME_DIALECT: 'reference', KEYFRAME_REFERENCE_MEDIA_PORT: 'off' });
    expect(mediaPortOf(off.service)).to.equal(undefined);
    await off.frontend.close();
    await off.service.stop();

    const { service, frontend } = await start({ KEYFRAME_REFERENCE_MEDIA_PORT: String(port) });
    expect(mediaPortOf(service)).to.equal(undefined);
    const answer = (address: string) =>
      fetch(address).then(
        (response) => response.status,
        () => 'no answer',
      );
    expect(await answer(`http://localhost:${port}/api/content`)).to.equal('no answer');
    /** The answer to a path outside the library once the listener is up, looking for a second at most. */
    const answerWithinASecond = async () => {
      const address = `http://localhost:${port}/api/content?input=%2Fetc%2Fpasswd.mp4`;
      let status = await answer(address);
      for (let tries = 0; status === 'no answer' && tries < 20; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await answer(address);
      }
      return status;
    };
    frontend.send('UpdateSettings', { wireDialect: 'reference' });
    await frontend.until('Settings', (settings) => settings.wireDialect === 'reference', 10_000);
    // The listener starts as the setting is stored, not before the Settings echo.
    expect(await answerWithinASecond()).to.equal(404);
    await frontend.close();
    await service.stop();

    // A frontend that asks for the reference dialect gets its media port, whatever the default.
    // (The setting above stays reference in this data folder: the environment says spec.)
    const asked = await start({ KEYFRAME_DIALECT: 'spec', KEYFRAME_REFERENCE_MEDIA_PORT: String(port) });
    expect(await answer(`http://localhost:${port}/api/content`)).to.equal('no answer');
    const referenceFrontend = await ProtocolClient.connect(`${asked.service.url}?dialect=reference`);
    try {
      expect(await answerWithinASecond()).to.equal(404);
    } finally {
      await referenceFrontend.close();
    }
  });
});
