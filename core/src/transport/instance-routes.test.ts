import { expect } from 'chai';
import { createServer, request, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DesktopWindow } from '../platform/desktop-window.js';
import { DataFolderLock } from '../support/data-folder-lock.js';
import { instanceSecret } from '../support/instance-secret.js';
import { Logger } from '../support/logger.js';
import { HttpRoutes } from './http-routes.js';
import { IDENTITY_PATH, InstanceIdentity, InstanceRoutes, SHOW_WINDOW_PATH } from './instance-routes.js';
import { NotKeyframeError, RunningInstance } from './running-instance.js';

/** An HTTP server on loopback that serves `routes` (the service's HttpServer minus its Host/Origin checks). */
async function serve(routes: HttpRoutes | undefined): Promise<{ server: Server; port: number }> {
  const server = createServer((incoming, response) => {
    const handler = routes?.find(new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname);
    if (handler) return void handler(incoming, response, new URL(incoming.url ?? '/', 'http://127.0.0.1'));
    response.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1>Some other program</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

function post(port: number, pathname: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path: pathname, method: 'POST', headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('instance identity: a second launch finds the running Keyframe of its data folder', () => {
  let folder: string;
  let lock: DataFolderLock;
  let server: Server | undefined;
  let shown: number;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-instance-'));
    lock = await DataFolderLock.acquire(folder, 0);
    shown = 0;
  });
  afterEach(async () => {
    server?.close();
    await lock.release();
    await rm(folder, { recursive: true, force: true });
  });

  /** The running service's side: its routes on a port, written into the lock. */
  async function runningService(window: DesktopWindow): Promise<number> {
    const routes = new HttpRoutes();
    new InstanceRoutes(new InstanceIdentity(lock.instanceId, await instanceSecret(folder)), window, new Logger([])).install(routes);
    const listening = await serve(routes);
    server = listening.server;
    await lock.setPort(listening.port);
    return listening.port;
  }
  const appWindow: DesktopWindow = { kind: 'app window', show: async () => void shown++ };

  it('checks the proof of the folder’s secret, then has the window shown; each proof works once', async () => {
    const port = await runningService(appWindow);
    const running = await RunningInstance.find(folder);
    expect(running?.url).to.equal(`http://127.0.0.1:${port}/`);
    expect(await running!.showWindow()).to.equal(true);
    expect(shown).to.equal(1);
    // The same nonce again (a replay): refused.
    let replay: unknown;
    await running!.showWindow().catch((error: unknown) => (replay = error));
    expect(String(replay)).to.match(/did not show its window: no valid proof/);
    expect(shown).to.equal(1);
  });

  it('a Keyframe without an app window (headless) says so: the launcher opens one on it', async () => {
    await runningService({ kind: 'browser tab' });
    expect(await (await RunningInstance.find(folder))!.showWindow()).to.equal(false);
  });

  it('no lock, or nothing alive holding it: no running Keyframe', async () => {
    await lock.release();
    expect(await RunningInstance.find(folder)).to.equal(undefined);
  });

  it('another program on the lock’s port (or none): a message naming pid, port and what to do, and no window', async () => {
    await instanceSecret(folder);
    const other = await serve(undefined);
    server = other.server;
    await lock.setPort(other.port);
    const error = await RunningInstance.find(folder).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(NotKeyframeError);
    expect((error as Error).message).to.include(`runs as pid ${process.pid} on port ${other.port}`);
    expect((error as Error).message).to.include('is not that Keyframe');
    expect((error as Error).message).to.include('delete');
    server.close();
    const closed = await RunningInstance.find(folder).catch((caught: unknown) => caught);
    expect((closed as Error).message).to.include('nothing answers there');
  });

  it('refuses web pages and wrong proofs: an Origin, fetch metadata or a form post never shows the window', async () => {
    const port = await runningService(appWindow);
    const json = { 'Content-Type': 'application/json' };
    const body = JSON.stringify({ nonce: 'a'.repeat(32), proof: 'b'.repeat(64) });
    expect(await post(port, SHOW_WINDOW_PATH, body, { ...json, Origin: 'https://attacker.example' })).to.equal(403);
    expect(await post(port, SHOW_WINDOW_PATH, body, { ...json, 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' })).to.equal(
      403,
    );
    expect(await post(port, SHOW_WINDOW_PATH, body, { 'Content-Type': 'text/plain' })).to.equal(403);
    expect(await post(port, IDENTITY_PATH, JSON.stringify({ challenge: 'c'.repeat(64) }), { ...json, Origin: 'null' })).to.equal(403);
    expect(await post(port, SHOW_WINDOW_PATH, body, json)).to.equal(403);
    expect(shown).to.equal(0);
  });
});
