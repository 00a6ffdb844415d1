// The versions a standalone package is generated with. A published starter cannot read this
// repository, so they are written here; versions.test.ts keeps them equal to the repository's own.

/** The Keyframe host (and SDK) versions the generated package supports: its `engines.keyframe`. */
export const KEYFRAME_RANGE = '^0.1.0';
/** @keyframe/core and @keyframe/integration-testkit, for building and testing. */
export const SDK_RANGE = '^0.1.0';

/** The SDK's own runtime dependencies the plugin imports too (peer dependencies: the host's copy). */
export const SDK_PEERS = {
  'reflect-metadata': '^0.2.2',
  tsyringe: '^4.10.0',
} as const;

/** What the generated package builds and tests with. */
export const TOOLS = {
  '@types/chai': '^5.2.3',
  '@types/mocha': '^10.0.10',
  '@types/node': '^20.19.0',
  chai: '^6.3.0',
  mocha: '^12.0.3',
  typescript: '~6.0.3',
} as const;

export const NODE_RANGE = '>=20.19';
