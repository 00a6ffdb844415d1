#!/usr/bin/env node
// The `create-keyframe-integration` command (`npm create keyframe-integration <folder>`).
import path from 'node:path';
import { parseCommandLine, USAGE } from './command-line.js';
import { generateIntegration } from './generate.js';
import { standaloneLayout } from './layouts.js';
import { resolveProject, UsageError } from './project.js';

async function main(): Promise<number> {
  try {
    const commandLine = parseCommandLine(process.argv.slice(2));
    if (commandLine.help) {
      console.log(USAGE);
      return 0;
    }
    const project = resolveProject(commandLine.request, process.cwd());
    await generateIntegration(project, standaloneLayout());
    const shown = path.relative(process.cwd(), project.folder) || '.';
    console.log(`Created ${shown}: ${project.packageName}, integration key ${project.key}, a ${project.feed} feed.

Next steps:
  cd ${shown}
  npm install          the SDK, the test kit, TypeScript and mocha (until @keyframe/core is on npm:
                       npm install --save-dev <keyframe-core.tgz> <keyframe-integration-testkit.tgz>)
  npm run build        compile to dist/
  npm run check        the manifest and the package, as Keyframe reads them
  npm test             its unit tests, and the sample tape replayed

${path.join(shown, 'README.md')} says what to change for your game, and how to install the
integration into Keyframe (npx keyframe plugin install).`);
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`create-keyframe-integration: ${error.message}\n\nRun with --help for the options.`);
    return 1;
  }
}

process.exitCode = await main();
