#!/usr/bin/env node
// `npm run package`: the Linux installation of Keyframe (docs/packaging.md), from the built tree:
//   packages/keyframe-<version>-linux-<arch>/          the install root, ready to run where it lies
//     keyframe               the launcher: a POSIX sh script running launcher.mjs on runtime/node
//     launcher.mjs           core's self-updating launcher (core/dist/updates/launcher-cli.js) bundled into one file
//     runtime/node           the Node.js runtime the launcher and the service run on (this build's own)
//     versions/<version>/    the release: core, desktop, plugins, ui/dist and the node_modules they load at run time
//     current -> versions/<version>
//     share/icons/hicolor/<n>x<n>/apps/keyframe.png   the menu icon, drawn here
//     install.sh, uninstall.sh, VERSION, .keyframe-install
//   packages/keyframe-<version>-linux-<arch>.tar.gz    the same folder, packed (left out with --no-tarball)
//
//   node scripts/package-linux.mjs [--out <folder>] [--no-tarball]
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { outdatedParts } from './build-status.mjs';

const repository = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { out: { type: 'string', default: path.join(repository, 'packages') }, 'no-tarball': { type: 'boolean' } },
});

const stale = outdatedParts(repository);
if (stale.length > 0) {
  console.error(
    `package-linux: the build is out of date (${stale.map(({ part, reason }) => `${part}: ${reason}`).join('; ')}): run npm run build first`,
  );
  process.exit(1);
}
if (process.platform !== 'linux') {
  console.error('package-linux: makes the Linux package on Linux only (the runtime and ffmpeg it ships are this machine’s)');
  process.exit(1);
}
// Imported after the check: they are the built desktop layer's modules.
const { dependencyClosure, packagesImportedBy, readPackageJson } = await import('../desktop/dist/packaging/runtime-packages.js');
const { appIconPixels } = await import('../desktop/dist/packaging/app-icon.js');
const { encodePng } = await import('../desktop/dist/tray/tray-icons.js');

const version = readPackageJson(path.join(repository, 'core')).version;
const name = `keyframe-${version}-linux-${process.arch}`;
const root = path.join(path.resolve(values.out), name);
const release = path.join(root, 'versions', version);
const templates = path.join(repository, 'desktop', 'src', 'packaging', 'linux');

/** The workspace packages a release holds, by name: core, the desktop layer, the bundled integrations. */
const workspace = new Map(
  ['core', 'desktop', ...readdirSync(path.join(repository, 'plugins')).map((plugin) => `plugins/${plugin}`)].map((folder) => [
    readPackageJson(path.join(repository, folder)).name,
    path.join(repository, folder),
  ]),
);

/** A workspace package's run-time files: its manifest, data/ and dist/ without tests, test kits and declarations' maps. */
const shipped = (source) => (file) => {
  const inside = path.relative(source, file).split(path.sep);
  if (inside[0] === '') return true;
  if (inside.length === 1) return ['package.json', 'data', 'dist'].includes(inside[0]);
  if (inside[0] !== 'dist' && inside[0] !== 'data') return false;
  return !/\.test\.|\.d\.ts\.map$/.test(inside.at(-1)) && !inside.includes('testing') && !inside.includes('test-support');
};

rmSync(root, { recursive: true, force: true });
mkdirSync(release, { recursive: true });

// The release: each workspace package where it lies in the repository, so every path a module finds from its own
// URL (ui/dist from core, plugins/ beside core) is the same; node_modules/@keyframe/<name> links to them, as npm's do.
for (const [packageName, source] of workspace) {
  const target = path.join(release, path.relative(repository, source));
  cpSync(source, target, { recursive: true, filter: shipped(source) });
  if (!source.includes(`${path.sep}plugins${path.sep}`)) {
    mkdirSync(path.join(release, 'node_modules', '@keyframe'), { recursive: true });
    symlinkSync(path.join('..', '..', path.relative(repository, source)), path.join(release, 'node_modules', packageName));
  }
}
cpSync(path.join(repository, 'ui', 'dist'), path.join(release, 'ui', 'dist'), { recursive: true });

// node_modules: the packages the shipped modules import (the service's bundle has ws, semver and chokidar inside it),
// the ones core finds by name at run time, and their dependencies. Nothing else: no build or test tool.
const entries = [
  path.join(repository, 'core', 'dist', 'bundle', 'keyframe.mjs'),
  path.join(repository, 'core', 'dist', 'integrations', 'shared-modules-hook.js'),
  path.join(repository, 'desktop', 'dist', 'index.js'),
  ...[...workspace.values()]
    .filter((folder) => folder.includes(`${path.sep}plugins${path.sep}`))
    .map((folder) => path.join(folder, 'dist', 'index.js')),
];
const imported = [...packagesImportedBy(entries, workspace)];
/** Resolved by name rather than imported: core/src/media/ffmpeg-toolbox.ts, feeds/screen-text/text-recognizer.ts, hotkeys/key-hook.ts. */
const RESOLVED_BY_NAME = ['@ffmpeg-installer/ffmpeg', '@ffprobe-installer/ffprobe', '@tesseract.js-data/eng'];
const OPTIONAL_BY_NAME = ['ffmpeg-static', 'uiohook-napi'];
for (const folder of dependencyClosure([...imported, ...RESOLVED_BY_NAME], repository, OPTIONAL_BY_NAME)) {
  cpSync(folder, path.join(release, path.relative(repository, folder)), { recursive: true, dereference: false });
}

// The launcher, in one file: it stays at the root while updates change versions/ (install-root's tar is only the
// updater's, imported lazily by the service, never by the launcher).
const launcher = await rolldown({
  input: path.join(repository, 'core', 'dist', 'updates', 'launcher-cli.js'),
  platform: 'node',
  external: ['tar'],
  logLevel: 'warn',
});
await launcher.write({ file: path.join(root, 'launcher.mjs'), format: 'es', codeSplitting: false });
await launcher.close();

// The runtime: this Node, with its licence (MIT; the official builds ship it as LICENSE, Debian's as its copyright file).
mkdirSync(path.join(root, 'runtime'));
copyFileSync(process.execPath, path.join(root, 'runtime', 'node'));
chmodSync(path.join(root, 'runtime', 'node'), 0o755);
const licence = [path.join(path.dirname(process.execPath), '..', 'LICENSE'), '/usr/share/doc/nodejs/copyright'].find(existsSync);
writeFileSync(
  path.join(root, 'runtime', 'LICENSE'),
  licence
    ? readFileSync(licence)
    : `Node.js ${process.version}: MIT licence, https://github.com/nodejs/node/blob/${process.version}/LICENSE\n`,
);

for (const size of [48, 128, 256]) {
  const folder = path.join(root, 'share', 'icons', 'hicolor', `${size}x${size}`, 'apps');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'keyframe.png'), encodePng(appIconPixels(size)));
}
for (const [template, file] of [
  ['keyframe.sh', 'keyframe'],
  ['install.sh', 'install.sh'],
  ['uninstall.sh', 'uninstall.sh'],
]) {
  copyFileSync(path.join(templates, template), path.join(root, file));
  chmodSync(path.join(root, file), 0o755);
}
writeFileSync(path.join(root, 'VERSION'), `${version}\n`);
writeFileSync(path.join(root, '.keyframe-install'), 'A Keyframe installation: uninstall.sh removes what install.sh wrote.\n');
symlinkSync(path.join('versions', version), path.join(root, 'current'));

if (!values['no-tarball']) {
  const tarball = `${root}.tar.gz`;
  const packed = spawnSync('tar', ['-czf', tarball, '-C', path.dirname(root), name], { stdio: 'inherit' });
  if (packed.status !== 0) process.exit(packed.status ?? 1);
  console.log(`Packed ${tarball}`);
}
console.log(`Keyframe ${version} for Linux (${process.arch}): ${root}`);
console.log(`Install it with ${path.join(root, 'install.sh')}`);
