// The generated package.json: npm's fields, the layout's dependencies and scripts, and the
// `keyframe` manifest the host reads without importing any code.
import { FEED_TEMPLATES } from './feed-kinds.js';
import type { Layout } from './layouts.js';
import type { Project } from './project.js';

/** The bookmark types in words: Kill, Death → "kill and death". */
const eventsInWords = (events: readonly string[]) => events.map((event) => event.toLowerCase()).join(' and ');

export function packageManifest(project: Project, layout: Layout): Record<string, unknown> {
  const feed = FEED_TEMPLATES[project.feed];
  return {
    name: project.packageName,
    version: '0.1.0',
    description: `Keyframe game integration: ${eventsInWords(feed.events)} bookmarks from ${project.displayName}`,
    type: 'module',
    license: 'MIT',
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    scripts: layout.scripts,
    engines: layout.engines,
    peerDependencies: layout.peerDependencies,
    devDependencies: layout.devDependencies,
    keyframe: {
      apiVersion: 1,
      integration: {
        key: project.key,
        displayName: project.displayName,
        events: feed.events,
        games: [{ name: project.displayName, executables: [`${project.slug}.exe`, project.slug] }],
        feeds: [feed.manifestFeed(project.port)],
      },
    },
    // The tests and their data stay out of the published package.
    files: ['dist', '!dist/**/*.test.*'],
  };
}
