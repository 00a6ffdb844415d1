// Where a generated package lives decides how it builds: on its own (a third party's folder, with
// the SDK and the kit installed from npm or tarballs) or as a workspace package of this repository
// (extends tsconfig.base.json, references core and the kit, workspace versions).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KEYFRAME_RANGE, NODE_RANGE, SDK_PEERS, SDK_RANGE, TOOLS } from './versions.js';

export const CORE_PACKAGE = '@keyframe/core';
export const KIT_PACKAGE = '@keyframe/integration-testkit';

type JsonObject = Record<string, unknown>;

export interface Layout {
  readonly name: 'standalone' | 'workspace';
  readonly tsconfig: (folder: string) => JsonObject;
  readonly peerDependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly scripts: Readonly<Record<string, string>>;
  readonly engines: Readonly<Record<string, string>>;
  /** The README's "Build and test" section: templates/layouts/<name>.md. */
  readonly readmeSection: string;
}

/** The compiler options the repository's tsconfig.base.json has, for a package that cannot extend it. */
const STANDALONE_COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023'],
  types: ['node', 'mocha'],
  strict: true,
  noImplicitOverride: true,
  noUnusedLocals: true,
  noFallthroughCasesInSwitch: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  composite: true,
  declaration: true,
  declarationMap: true,
  sourceMap: true,
  esModuleInterop: true,
  skipLibCheck: true,
  forceConsistentCasingInFileNames: true,
  rootDir: 'src',
  outDir: 'dist',
};

// 30 s: a tape of a screenText feed is read again with real OCR (the first read starts tesseract).
const TEST_SCRIPT = "mocha --timeout 30000 --require reflect-metadata 'dist/**/*.test.js'";

export function standaloneLayout(): Layout {
  const sdk = { [CORE_PACKAGE]: SDK_RANGE, ...SDK_PEERS };
  return {
    name: 'standalone',
    tsconfig: () => ({ compilerOptions: STANDALONE_COMPILER_OPTIONS, include: ['src'] }),
    peerDependencies: sdk,
    devDependencies: { ...sdk, [KIT_PACKAGE]: SDK_RANGE, ...TOOLS },
    scripts: { build: 'tsc -b', test: TEST_SCRIPT, check: 'keyframe plugin check .' },
    engines: { node: NODE_RANGE, keyframe: KEYFRAME_RANGE },
    readmeSection: 'standalone',
  };
}

const readJson = (file: string): JsonObject => JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
const dependencyOf = (manifest: JsonObject, name: string): string => (manifest['dependencies'] as Record<string, string>)[name]!;

/** Forward-slash relative path from `from` to `to`, always starting with `.` (tsconfig wants one). */
function relativeFrom(from: string, to: string): string {
  const relative = path.relative(from, to).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** A package of the repository at `repoRoot`: its versions, its base tsconfig, its project references. */
export function workspaceLayout(repoRoot: string): Layout {
  const core = readJson(path.join(repoRoot, 'core', 'package.json'));
  const kit = readJson(path.join(repoRoot, 'testkit', 'package.json'));
  const peers = {
    [CORE_PACKAGE]: String(core['version']),
    'reflect-metadata': dependencyOf(core, 'reflect-metadata'),
    tsyringe: dependencyOf(core, 'tsyringe'),
  };
  return {
    name: 'workspace',
    tsconfig: (folder) => ({
      extends: relativeFrom(folder, path.join(repoRoot, 'tsconfig.base.json')),
      compilerOptions: { rootDir: 'src', outDir: 'dist' },
      include: ['src'],
      references: [
        { path: relativeFrom(folder, path.join(repoRoot, 'core')) },
        { path: relativeFrom(folder, path.join(repoRoot, 'testkit')) },
      ],
    }),
    peerDependencies: peers,
    devDependencies: { ...peers, [KIT_PACKAGE]: String(kit['version']) },
    // --no-config: the root .mocharc.json names a reporter by a path relative to the root.
    scripts: { build: 'tsc -b', test: TEST_SCRIPT.replace('mocha ', 'mocha --no-config '), check: 'keyframe plugin check .' },
    engines: { keyframe: `^${String(core['version'])}` },
    readmeSection: 'workspace',
  };
}
