// The release check for integration packages (`npm run lint` runs it too): every package under
// plugins/ is well-formed, and a package that breaks the rules is reported.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHECK = path.join(ROOT, 'scripts', 'check-plugins.mjs');

describe('integration package check', () => {
  it('passes for every package under plugins/', async () => {
    const { stdout } = await run(process.execPath, [CHECK]);
    expect(stdout).to.include('well-formed');
  });

  it('reports core as a dependency, install scripts, imports of core internals and tests on the private @keyframe/test', async () => {
    await mkdir(path.join(ROOT, '.test-plugins'), { recursive: true });
    const folder = await mkdtemp(path.join(ROOT, '.test-plugins', 'check-'));
    try {
      const plugin = path.join(folder, 'bad');
      await mkdir(path.join(plugin, 'src'), { recursive: true });
      await writeFile(
        path.join(plugin, 'package.json'),
        JSON.stringify({
          name: 'bad',
          main: 'index.js',
          dependencies: { '@keyframe/core': '0.1.0' },
          devDependencies: { '@keyframe/test': '0.1.0' },
          scripts: { postinstall: 'node x.js' },
          keyframe: {
            apiVersion: 1,
            integration: { key: 'bad', displayName: 'Bad', events: ['Kill'], games: [{ name: 'B', executables: ['b'] }], feeds: [] },
          },
        }),
      );
      await writeFile(path.join(plugin, 'src', 'index.ts'), "import { StateStore } from '@keyframe/core/host';\n");
      await writeFile(path.join(plugin, 'src', 'tapes.test.ts'), "import { itReplaysEveryTape } from '@keyframe/test';\n");
      const failure = await run(process.execPath, [CHECK, folder]).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).to.equal(1);
      expect(failure?.stderr).to.include('@keyframe/core must be a peer dependency');
      expect(failure?.stderr).to.include('lifecycle script "postinstall"');
      expect(failure?.stderr).to.include('imports core internals: @keyframe/core/host');
      expect(failure?.stderr).to.include('@keyframe/test is private: depend on @keyframe/integration-testkit instead');
      expect(failure?.stderr).to.include('tapes.test.ts imports @keyframe/test: use @keyframe/integration-testkit');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
