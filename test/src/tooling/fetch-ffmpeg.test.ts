// `npm install`'s ffmpeg fetch (scripts/fetch-ffmpeg.mjs, the root postinstall) run for real with the
// download failing, as offline and in CI: the install must still succeed and say what Keyframe uses.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempFolder, type TempFolder } from '@keyframe/integration-testkit';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const FETCH = path.join(REPO, 'scripts', 'fetch-ffmpeg.mjs');

/** A loopback port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function runFetch(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FETCH, ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm install fetching a current ffmpeg (scripts/fetch-ffmpeg.mjs)', function () {
  this.timeout(20_000);
  let temp: TempFolder;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    temp = await createTempFolder('keyframe-fetch-ffmpeg-');
    // FFMPEG_BIN puts the binary in the temp folder, so the repository's ffmpeg-static is not touched.
    env = {
      ...process.env,
      FFMPEG_BIN: path.join(temp.path, 'ffmpeg'),
      FFMPEG_BINARIES_URL: `http://127.0.0.1:${await closedPort()}`,
      HTTPS_PROXY: '',
      HTTP_PROXY: '',
      https_proxy: '',
      http_proxy: '',
    };
  });
  afterEach(() => temp.remove());

  it('as the postinstall, exits 0 with one line naming the failure, the fallback and the retry command', async () => {
    const { code, output } = await runFetch(['--postinstall'], env);
    expect(code).to.equal(0);
    const lines = output.trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/fetching a current ffmpeg .* failed: .*ECONNREFUSED/);
    expect(lines[0]).to.include('will use the fallback').and.include('npm run fetch-ffmpeg');
    expect(existsSync(path.join(temp.path, 'ffmpeg')), 'no partial binary left behind').to.equal(false);
  });

  it('as npm run fetch-ffmpeg (a retry), exits 1 when the fetch fails again', async () => {
    const { code, output } = await runFetch([], env);
    expect(code).to.equal(1);
    expect(output).to.include('npm run fetch-ffmpeg');
  });

  it('gives up after its time limit when the mirror never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    try {
      const port = address !== null && typeof address === 'object' ? address.port : 0;
      const started = Date.now();
      const { code, output } = await runFetch(['--postinstall'], {
        ...env,
        FFMPEG_BINARIES_URL: `http://127.0.0.1:${port}`,
        KEYFRAME_FFMPEG_FETCH_TIMEOUT_MS: '1500',
      });
      expect(code).to.equal(0);
      expect(output).to.include('no answer within');
      expect(Date.now() - started).to.be.below(10_000);
    } finally {
      silent.close();
    }
  });
});
