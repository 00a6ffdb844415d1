// The standalone layout's versions are written in versions.ts (a published starter cannot read this
// repository): they must be the ones this repository builds and tests with.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { KEYFRAME_RANGE, SDK_PEERS, SDK_RANGE, TOOLS } from './versions.js';

type Manifest = { version: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const manifest = (relative: string) => JSON.parse(readFileSync(new URL(`../../${relative}`, import.meta.url), 'utf8')) as Manifest;

describe('the versions a standalone integration is generated with', () => {
  it('accept the SDK and the host of this repository', () => {
    const core = manifest('core/package.json');
    expect(SDK_RANGE).to.equal(`^${core.version}`);
    expect(KEYFRAME_RANGE).to.equal(`^${core.version}`);
    expect(SDK_PEERS).to.deep.equal({
      'reflect-metadata': core.dependencies!['reflect-metadata'],
      tsyringe: core.dependencies!['tsyringe'],
    });
  });

  it('are the tools the repository builds and tests with', () => {
    const root = manifest('package.json');
    for (const [name, range] of Object.entries(TOOLS)) expect(range, name).to.equal(root.devDependencies![name]);
  });
});
