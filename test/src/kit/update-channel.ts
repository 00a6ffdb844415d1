// The update side of the updates suites: a local HTTP update channel serving real .tar.gz packages
// (built here, with their size and SHA-256), and keyframe-launcher run as a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { create as createTar } from 'tar';

const require = createRequire(import.meta.url);
const CORE = path.dirname(require.resolve('@keyframe/core/package.json'));
/** The service's entry in tsc's output: what a fake version imports to run the real service. */
export const SERVICE_MAIN = path.join(CORE, 'dist', 'main.js');
const LAUNCHER = path.join(CORE, 'dist', 'updates', 'launcher-cli.js');
export const RUNNING_VERSION = (JSON.parse(await readFile(path.join(CORE, 'package.json'), 'utf8')) as { version: string }).version;

export interface FeedRelease {
  version: string;
  channel: 'stable' | 'beta';
  url: string;
  size: number;
  sha256: string;
  releaseDate: string;
  notes: string;
}

/** A release package: a .tar.gz of `files`, with its size and SHA-256. */
export async function buildPackage(folder: string, name: string, files: Record<string, string>) {
  const source = path.join(folder, `package-${name}`);
  await mkdir(source, { recursive: true });
  for (const [file, content] of Object.entries(files)) await writeFile(path.join(source, file), content);
  const file = path.join(folder, `${name}.tar.gz`);
  await createTar({ gzip: true, file, cwd: source }, Object.keys(files));
  const bytes = await readFile(file);
  return { bytes, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The update channel on loopback: `/feed.json` and `/packages/<name>`. */
export class UpdateChannel {
  releases: FeedRelease[] = [];
  readonly packages = new Map<string, Buffer>();
  feedDelayMs = 0;
  feedRequests = 0;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<UpdateChannel> {
    const server = createServer();
    const channel = new UpdateChannel(server);
    server.on('request', (request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/feed.json') {
        channel.feedRequests++;
        setTimeout(
          () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ releases: channel.releases })),
          channel.feedDelayMs,
        );
        return;
      }
      const bytes = channel.packages.get(url.pathname.replace('/packages/', ''));
      if (!bytes) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length }).end(bytes);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return channel;
  }

  get feedUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/feed.json`;
  }

  /** Publishes a package; `sha256` overrides the announced checksum. */
  publish(version: string, built: { bytes: Buffer; size: number; sha256: string }, overrides: Partial<FeedRelease> = {}): void {
    this.packages.set(`keyframe-${version}.tar.gz`, built.bytes);
    this.releases.push({
      version,
      channel: 'stable',
      url: `packages/keyframe-${version}.tar.gz`,
      size: built.size,
      sha256: built.sha256,
      releaseDate: '2026-11-20T12:00:00Z',
      notes: `## Keyframe ${version}\n- Faster clips`,
      ...overrides,
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** keyframe-launcher as a child process, with everything it and its service print. */
export class LauncherRun {
  output = '';
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static start(root: string, launcherArgs: string[], serviceArgs: string[] = [], env: NodeJS.ProcessEnv = {}): LauncherRun {
    return new LauncherRun(
      spawn(process.execPath, [LAUNCHER, '--root', root, '--headless', ...launcherArgs, '--', ...serviceArgs], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  }

  /** The `index`-th (0-based) match of `pattern` in the output, waiting for it. */
  async waitFor(pattern: RegExp, index = 0, timeoutMs = 30_000): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matches = [...this.output.matchAll(new RegExp(pattern.source, 'g'))];
      if (matches[index]) return matches[index] as RegExpExecArray;
      if (Date.now() > deadline) throw new Error(`no ${pattern} (#${index + 1}) within ${timeoutMs} ms:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }
}
