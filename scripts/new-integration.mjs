// `npm run new-integration -- <folder-name> <key> [--feed <kind>] [--port <n>]`: creates plugins/<folder-name>/,
// a working game integration package, with create-keyframe-integration's generator (create/, built by
// `npm run build`) in its workspace layout, and adds it to the root tsconfig.json. KEYFRAME_PLUGINS_DIR
// puts it elsewhere (tests); then the root tsconfig is left alone.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const REPO_PLUGINS = path.join(REPO, 'plugins');
const GENERATOR = path.join(REPO, 'create', 'dist', 'index.js');

const NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

function fail(message) {
  console.error(`new-integration: ${message}`);
  process.exit(1);
}

if (!existsSync(GENERATOR)) fail('create/ is not built: run `npm run build` first');
const { FEED_KINDS, UsageError, generateIntegration, keyProblem, resolveProject, workspaceLayout } = await import(pathToFileURL(GENERATOR).href);

const USAGE = `Usage: npm run new-integration -- <folder-name> <key> [--feed <kind>] [--port <n>]

  <folder-name>  kebab-case folder under plugins/, e.g. racing-game (package @keyframe/plugin-racing-game)
  <key>          the integration key and settings key, e.g. racingGame
  --feed <kind>  how the game gives its data: ${FEED_KINDS.join(', ')} (default httpPush)
  --port <n>     the loopback port of an httpPush or poll feed (default: a placeholder you must change)

Outside this repository: npm create keyframe-integration <folder>.
Environment: KEYFRAME_PLUGINS_DIR=<folder> creates the package there instead of plugins/ and leaves
the root tsconfig.json alone.`;

function parseCommandLine(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { feed: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
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
  const badKey = keyProblem(key);
  if (badKey) fail(badKey);
  return { name, key, feed: values.feed, port: values.port };
}

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

async function main() {
  const { name, key, feed, port } = parseCommandLine(process.argv.slice(2));
  const pluginsFolder = path.resolve(process.env.KEYFRAME_PLUGINS_DIR || REPO_PLUGINS);
  const inWorkspace = pluginsFolder === path.resolve(REPO_PLUGINS);
  const target = path.join(pluginsFolder, name);

  if (existsSync(target)) fail(`${target} already exists: choose another folder name or remove that folder first`);
  const owner = ownerOfKey(key, [...new Set([REPO_PLUGINS, pluginsFolder])]);
  if (owner) fail(`key "${key}" is already used by ${shortPath(owner)}: each integration needs its own key`);

  let project;
  try {
    project = resolveProject({ folder: target, key, feed, port, packageName: `@keyframe/plugin-${name}` }, REPO);
    await generateIntegration(project, workspaceLayout(REPO));
  } catch (error) {
    if (error instanceof UsageError) fail(error.message);
    fail(`could not create ${target}: ${error.message}`);
  }

  const shown = path.relative(process.cwd(), target) || '.';
  console.log(`Created ${shown} (${project.packageName}, key ${key}, class ${project.className}, a ${project.feed} feed).`);
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
  const portLine = project.port === undefined ? '' : `The placeholder port is ${project.port}: change it to your game's (package.json, and the README says where else).\n`;
  console.log(`
${portLine}${path.join(shown, 'README.md')} lists what to change, in order.

Next steps:
${steps.map(([command, why]) => `  ${command.padEnd(width)}${why}`).join('\n')}
${
  inWorkspace
    ? `(\`keyframe\` is \`node core/dist/main.js\` in a checkout, \`npx keyframe\` where @keyframe/core is installed;
 add --out plugins/${name}/test/data/<case>.tape.jsonl to keep the tape beside its tests.)\n`
    : ''
}Guide: docs/writing-an-integration.md`);
}

await main();
