// `create-keyframe-integration <folder> [options]`: what the command line asks for, or a UsageError.
import { parseArgs } from 'node:util';
import { FEED_KINDS, FEED_TEMPLATES } from './feed-kinds.js';
import { UsageError, type IntegrationRequest } from './project.js';

export const USAGE = `Usage: npm create keyframe-integration <folder> [options]
       (or: npx create-keyframe-integration <folder> [options])

Creates <folder> with a Keyframe game integration package that builds, checks and passes its
tests as it is, against a made-up game protocol for you to replace with your game's.

Options (defaults come from the folder name, e.g. racing-game):
  --feed <kind>           how the game gives its data (default httpPush):
${FEED_KINDS.map((kind) => `                            ${kind.padEnd(12)}${FEED_TEMPLATES[kind].summary}`).join('\n')}
  --key <key>             the integration key and settings key (default racingGame)
  --display-name <text>   what the settings show (default "Racing game")
  --package-name <name>   the npm package name (default keyframe-plugin-racing-game)
  --port <n>              the loopback port of an httpPush, poll, tcp, webSocket or udp feed
                          (default: a placeholder)
  -h, --help              this text

Nothing is written when an option is refused or <folder> exists and is not empty.`;

export type CommandLine = { readonly help: true } | { readonly help: false; readonly request: IntegrationRequest };

export function parseCommandLine(argv: readonly string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        feed: { type: 'string' },
        key: { type: 'string' },
        'display-name': { type: 'string' },
        'package-name': { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length !== 1) throw new UsageError(`expected one folder, got ${positionals.length} argument(s)`);
  const request: IntegrationRequest = {
    folder: positionals[0]!,
    ...(values.feed !== undefined && { feed: values.feed }),
    ...(values.key !== undefined && { key: values.key }),
    ...(values['display-name'] !== undefined && { displayName: values['display-name'] }),
    ...(values['package-name'] !== undefined && { packageName: values['package-name'] }),
    ...(values.port !== undefined && { port: values.port }),
  };
  return { help: false, request };
}
