import { expect } from 'chai';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describePluginFailure } from './plugin-failure.js';

describe('describePluginFailure', () => {
  const root = path.resolve('/plugins with spaces/racing-game');
  const url = (file: string) => pathToFileURL(path.join(root, file)).href;
  const failure = (stack: string[]) => Object.assign(new Error('boom'), { stack: ['Error: boom', ...stack].join('\n') });

  it("names the first frame in the package's own files, skipping the host's and its dependencies'", () => {
    const error = failure([
      '    at check (file:///app/core/dist/x.js:1:1)',
      `    at parse (${url('node_modules/some-parser/index.js')}:7:3)`,
      `    at RacingGame.activate (${url('dist/racing-game-integration.js')}:42:11)`,
    ]);
    expect(describePluginFailure(error, root)).to.equal('boom (at dist/racing-game-integration.js:42)');
  });

  it('reads a CommonJS path with spaces and a frame without a function name', () => {
    expect(describePluginFailure(failure([`    at ${path.join(root, 'lib', 'index.cjs')}:3:5`]), root)).to.equal(
      'boom (at lib/index.cjs:3)',
    );
  });

  it('makes the package paths in the message relative, and says only the message when no frame is in the package', () => {
    const error = new Error(`Cannot find package 'left-pad' imported from ${path.join(root, 'dist', 'index.js')}`);
    expect(describePluginFailure(error, root)).to.equal("Cannot find package 'left-pad' imported from dist/index.js");
    expect(describePluginFailure('a string', root)).to.equal('a string');
  });
});
