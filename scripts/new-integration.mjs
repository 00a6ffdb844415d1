// `npm run new-integration -- <folder-name> <key> [--port <n>]`: creates plugins/<folder-name>/, a
// working game integration package, from scripts/integration-template/, and adds it to the root
// tsconfig.json. KEYFRAME_PLUGINS_DIR puts it elsewhere (tests); then the root tsconfig is left alone.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const TEMPLATE = path.join(REPO, 'scripts', 'integration-template');
const REPO_PLUGINS = path.join(REPO, 'plugins');

const NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
// The manifest's own pattern (core/src/integrations/manifest.ts): it is the `gameIntegrations` settings key.
const KEY_PATTERN = /^[a-z][a-zA-Z0-9]*$/;
// Where generated placeholder ports fall: clear of the service's 44030 and of ports games use.
const PORT_RANGE = { first: 47000, size: 1000 };

const USAGE = `Usage: npm run new-integration -- <folder-name> <key> [--port <n>]

  <folder-name>  kebab-case folder under plugins/, e.g. racing-game (package @keyframe/plugin-racing-game)
  <key>          the integration key and settings key, e.g. racingGame (${KEY_PATTERN.source})
  --port <n>     the loopback port the game will push to (default: a placeholder you must change)

Environment: KEYFRAME_PLUGINS_DIR=<folder> creates the package there instead of plugins/ and leaves
the root tsconfig.json alone.`;

function fail(message) {
  console.error(`new-integration: ${message}`);
  process.exit(1);
}

function parseCommandLine(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    fail(`${error.message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length !== 2) fail(`expected a folder name and a key, got ${positionals.length} argument(s)\n\n${USAGE}`);
  const [name, key] = positionals;
  if (!NAME_PATTERN.test(name)) {
    fail(`folder name "${name}" is not kebab-case: use lower-case letters and digits in words joined by "-", starting with a letter (e.g. racing-game)`);
  }
  if (!KEY_PATTERN.test(key)) {
    fail(`key "${key}" is not valid: it must match ${KEY_PATTERN.source}, i.e. start with a lower-case letter and hold only letters and digits (e.g. racingGame)`);
  }
  let port = placeholderPort(key);
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port < 1 || port > 65535) fail(`--port "${values.port}" is not a port number (1-65535)`);
  }
  return { name, key, port };
}

/** A stable port per key, so two new integrations do not collide before their authors pick real ones. */
function placeholderPort(key) {
  let hash = 0;
  for (const character of key) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return PORT_RANGE.first + (hash % PORT_RANGE.size);
}

/** racing-game → "Racing game" (sentence case, like the other integrations' display names). */
const displayNameOf = (name) => {
  const words = name.split('-').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** racingGame → RacingGameIntegration. */
const classNameOf = (key) => {
  const pascal = key.charAt(0).toUpperCase() + key.slice(1);
  return pascal.endsWith('Integration') ? pascal : `${pascal}Integration`;
};

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Who already claims `key`: the package.json files of the packages in `folders`. */
function ownerOfKey(key, folders) {
  for (const folder of folders) {
    if (!existsSync(folder)) continue;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const manifestFile = path.join(folder, entry.name, 'package.json');
      if (!existsSync(manifestFile)) continue;
      let claimed;
      try {
        claimed = readJson(manifestFile).keyframe?.integration?.key;
      } catch {
        continue; // a broken package.json is not ours to judge here; discovery reports it
      }
      if (claimed === key) return path.join(folder, entry.name);
    }
  }
  return undefined;
}

/** `folder` relative to the repository when it lies inside it. */
function shortPath(folder) {
  const relative = path.relative(REPO, folder);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : folder;
}

/** Forward-slash relative path from `from` to `to`, always starting with `.` (tsconfig wants one). */
function relativeFrom(from, to) {
  const relative = path.relative(from, to).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

function substitute(text, values, file) {
  return text.replace(/__([A-Z][A-Z_]*[A-Z])__/g, (match, placeholder) => {
    if (!(placeholder in values)) throw new Error(`${file}: unknown placeholder ${match}`);
    return String(values[placeholder]);
  });
}

/** Copies the template into `target`: `.template` suffixes dropped, placeholders filled in, names too. */
function copyTemplate(source, target, values) {
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    const from = path.join(source, entry.name);
    const to = path.join(target, substitute(entry.name.replace(/\.template$/, ''), values, from));
    if (entry.isDirectory()) {
      copyTemplate(from, to, values);
      continue;
    }
    const text = substitute(readFileSync(from, 'utf8'), values, from);
    if (/\.json$/.test(to)) JSON.parse(text); // a broken template must fail here, not in the author's build
    writeFileSync(to, text);
  }
}

/** Adds `plugins/<name>` to the root tsconfig.json references, before `test` and `bench`. */
function addRootReference(name) {
  const file = path.join(REPO, 'tsconfig.json');
  const tsconfig = readJson(file);
  const references = tsconfig.references ?? [];
  const reference = `plugins/${name}`;
  if (references.some((entry) => entry.path === reference)) return false;
  const last = references.findIndex((entry) => entry.path === 'test' || entry.path === 'bench');
  references.splice(last < 0 ? references.length : last, 0, { path: reference });
  tsconfig.references = references;
  writeFileSync(file, `${JSON.stringify(tsconfig, null, 2)}\n`);
  return true;
}

function main() {
  const { name, key, port } = parseCommandLine(process.argv.slice(2));
  const pluginsFolder = path.resolve(process.env.KEYFRAME_PLUGINS_DIR || REPO_PLUGINS);
  const inWorkspace = pluginsFolder === path.resolve(REPO_PLUGINS);
  const target = path.join(pluginsFolder, name);

  if (existsSync(target)) fail(`${target} already exists: choose another folder name or remove that folder first`);
  const owner = ownerOfKey(key, [...new Set([REPO_PLUGINS, pluginsFolder])]);
  if (owner) fail(`key "${key}" is already used by ${shortPath(owner)}: each integration needs its own key`);

  const core = readJson(path.join(REPO, 'core', 'package.json'));
  const testKit = readJson(path.join(REPO, 'testkit', 'package.json'));
  const values = {
    NAME: name,
    KEY: key,
    DISPLAY_NAME: displayNameOf(name),
    CLASS_NAME: classNameOf(key),
    PORT: port,
    CORE_VERSION: core.version,
    TEST_KIT_VERSION: testKit.version,
    TSYRINGE_RANGE: core.dependencies.tsyringe,
    REFLECT_METADATA_RANGE: core.dependencies['reflect-metadata'],
    BASE_TSCONFIG_PATH: relativeFrom(target, path.join(REPO, 'tsconfig.base.json')),
    CORE_PATH: relativeFrom(target, path.join(REPO, 'core')),
    TEST_KIT_PATH: relativeFrom(target, path.join(REPO, 'testkit')),
    GUIDE_PATH: relativeFrom(target, path.join(REPO, 'docs', 'writing-an-integration.md')),
  };

  // Written beside the target and renamed into place: a failure never leaves half a package behind.
  mkdirSync(pluginsFolder, { recursive: true });
  const staging = path.join(pluginsFolder, `.${name}.partial-${process.pid}`);
  try {
    copyTemplate(TEMPLATE, staging, values);
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    fail(`could not create ${target}: ${error.message}`);
  }

  const shown = path.relative(process.cwd(), target) || '.';
  console.log(`Created ${shown} (@keyframe/plugin-${name}, key ${key}, class ${values.CLASS_NAME}).`);
  if (inWorkspace) {
    if (addRootReference(name)) console.log(`Added plugins/${name} to the references of tsconfig.json.`);
  } else {
    console.log('KEYFRAME_PLUGINS_DIR is set: tsconfig.json was left alone.');
    if (path.relative(REPO, target).startsWith('..') || path.isAbsolute(path.relative(REPO, target))) {
      console.warn(`Warning: ${target} is outside ${REPO}: @keyframe/core, @keyframe/integration-testkit and tsyringe will not resolve from there until they are installed.`);
    }
  }
  const steps = inWorkspace
    ? [
      ['npm install', 'link the new workspace package (once)'],
      ['npm run build', 'build everything, the new plugin included'],
      [`npm test -w plugins/${name}`, 'run its unit and tape tests alone'],
      [`keyframe tape record ${key}`, 'record a tape while you play (Ctrl+C ends it)'],
    ]
    : [
      [`cd ${shown}`, 'outside plugins/ it is no workspace package: build and test it in its folder'],
      ['npx tsc -b', 'build it (core and the test kit must be built)'],
      ["npx mocha --no-config --require reflect-metadata 'dist/**/*.test.js'", 'run its unit and tape tests'],
    ];
  const width = Math.max(...steps.map(([command]) => command.length)) + 3;
  console.log(`
The placeholder push port is ${port}: change it to your game's in package.json ("httpPush:${port}")
and in src/${name}-integration.ts (PUSH_PORT). ${path.join(shown, 'README.md')} lists what else to change.

Next steps:
${steps.map(([command, why]) => `  ${command.padEnd(width)}${why}`).join('\n')}
${inWorkspace ? `(\`keyframe\` is \`node core/dist/main.js\` in a checkout, \`npx keyframe\` where @keyframe/core is installed;
 add --out plugins/${name}/test/data/<case>.tape.jsonl to keep the tape beside its tests.)\n` : ''}Guide: docs/writing-an-integration.md`);
}

main();
