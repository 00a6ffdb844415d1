// Fetches ffmpeg-static's current ffmpeg build by running that package's own install script in a
// child process, with a time limit. The root package.json keeps `allowScripts` false for
// ffmpeg-static because its script exits 1 when the download fails (offline, behind a firewall, in
// CI), which would fail the whole `npm install`; this wrapper runs it instead (as the root
// `postinstall`) and, with `--postinstall`, turns a failure into one line and exit code 0: Keyframe
// then uses the fallback (@ffmpeg-installer's ffmpeg 4.1, then PATH). `npm run fetch-ffmpeg` retries
// and exits 1 when the fetch fails again.
//
// The child inherits the environment, so what ffmpeg-static honours passes through unchanged:
// FFMPEG_BINARIES_URL (a mirror), FFMPEG_BINARY_RELEASE (another release tag), FFMPEG_BIN (where
// the binary goes), HTTPS_PROXY / HTTP_PROXY (and their lower-case forms).
// KEYFRAME_FFMPEG_FETCH_TIMEOUT_MS sets the time limit (default 5 minutes).
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RETRY = 'npm run fetch-ffmpeg';
const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const postinstall = process.argv.includes('--postinstall');
const timeoutMs = Number(process.env.KEYFRAME_FFMPEG_FETCH_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;

/** ffmpeg-static as @keyframe/core resolves it (the service loads it from there). */
const requireFromCore = createRequire(fileURLToPath(new URL('../core/package.json', import.meta.url)));

function fail(reason) {
  console.warn(
    `Keyframe: fetching a current ffmpeg (ffmpeg-static) failed: ${reason}. Keyframe will use the fallback ` +
      `(@ffmpeg-installer's ffmpeg 4.1, else ffmpeg on PATH). To retry: ${RETRY}`,
  );
  process.exit(postinstall ? 0 : 1);
}

let packageFolder;
let binaryPath;
try {
  packageFolder = path.dirname(requireFromCore.resolve('ffmpeg-static/package.json'));
  binaryPath = requireFromCore('ffmpeg-static');
} catch (error) {
  fail(`the ffmpeg-static package is not installed (${String(error.message ?? error).split('\n')[0]})`);
}
if (!binaryPath) fail(`ffmpeg-static has no build for ${process.platform}-${process.arch}`);

const existedBefore = existsSync(binaryPath);
const child = spawn(process.execPath, [path.join(packageFolder, 'install.js')], {
  cwd: packageFolder,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  child.kill('SIGKILL');
}, timeoutMs);

child.on('close', (code) => {
  clearTimeout(timer);
  if (code === 0 && !timedOut) {
    console.log(`Keyframe: ffmpeg-static's ffmpeg is ready at ${binaryPath}`);
    return;
  }
  // A download cut off half-way leaves a file ffmpeg-static would later take as installed; it is
  // ours (it was not there before this run), so it goes.
  if (!existedBefore) rmSync(binaryPath, { force: true });
  fail(
    timedOut ? `no answer within ${Math.round(timeoutMs / 1000)} s` : firstErrorLine(output) || `its install script exited with ${code}`,
  );
});

/** The most telling line of the install script's output (it prints a whole error object). */
function firstErrorLine(text) {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return (lines.find((line) => /error|failed|ECONN|ENOTFOUND|ETIMEDOUT/i.test(line)) ?? lines[0] ?? '').replace(/\.$/, '');
}
