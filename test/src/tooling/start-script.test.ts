// `npm start` (scripts/start.mjs): on a built tree it starts the service without building anything, and
// scripts/build-status.mjs, which decides what to build, sees every change that would leave stale code.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/integration-testkit';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const START = path.join(REPO, 'scripts', 'start.mjs');
const BUILD_STATUS = path.join(REPO, 'scripts', 'build-status.mjs');

/** File times of the small tree: sources written at SOURCES, built at BUILT, edited at EDITED. */
const SOURCES = new Date('2026-01-01T10:00:00Z');
const BUILT = new Date('2026-01-01T10:05:00Z');
const EDITED = new Date('2026-01-01T10:10:00Z');

describe('npm start on a built tree (scripts/start.mjs)', function () {
  this.timeout(30_000);

  describe('what needs building (scripts/build-status.mjs)', () => {
    let temp: TempFolder;

    /** A tree shaped like this repository's: one TypeScript project and the UI, built after their sources. */
    const BUILT_TREE: Record<string, Date> = {
      'tsconfig.json': SOURCES,
      'tsconfig.base.json': SOURCES,
      'core/tsconfig.json': SOURCES,
      'core/src': SOURCES,
      'core/src/main.ts': SOURCES,
      'core/src/protocol': SOURCES,
      'core/src/protocol/state.ts': SOURCES,
      'core/src/notes.md': SOURCES,
      'core/dist': BUILT,
      'core/dist/main.js': BUILT,
      'core/dist/bundle/keyframe.mjs': BUILT,
      'core/tsconfig.tsbuildinfo': BUILT,
      'ui/src': SOURCES,
      'ui/src/app.tsx': SOURCES,
      'ui/index.html': SOURCES,
      'ui/vite.config.ts': SOURCES,
      'ui/package.json': SOURCES,
      'ui/tsconfig.json': SOURCES,
      'ui/dist/index.html': BUILT,
    };
    const CONTENT: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: 'core' }] }),
      'core/tsconfig.json': JSON.stringify({ extends: '../tsconfig.base.json', compilerOptions: { outDir: 'dist' }, include: ['src'] }),
    };

    beforeEach(async () => {
      temp = await createTempFolder('keyframe-start-');
      // Files first, then every time (a file written into a folder changes the folder's time).
      for (const name of Object.keys(BUILT_TREE).filter((entry) => /\.\w+$/.test(entry))) {
        await mkdir(path.dirname(at(name)), { recursive: true });
        await writeFile(at(name), CONTENT[name] ?? '{}');
      }
      await mkdir(at('core/dist'), { recursive: true });
      for (const [name, time] of Object.entries(BUILT_TREE)) await utimes(at(name), time, time);
    });
    afterEach(() => temp.remove());

    function at(name: string): string {
      return path.join(temp.path, name);
    }

    async function outdated(): Promise<string[]> {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BUILD_STATUS, '--root', temp.path], { stdio: ['ignore', 'pipe', 'inherit'] });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(output.split('\n').filter(Boolean)) : reject(new Error(`exit ${code}`))));
      });
    }

    it('finds nothing to build on a built tree', async () => {
      expect(await outdated()).to.deep.equal([]);
    });

    it('builds everything on a fresh clone', async () => {
      for (const output of ['core/dist', 'core/tsconfig.tsbuildinfo', 'ui/dist']) await rm(at(output), { recursive: true });
      expect(await outdated()).to.deep.equal(['typescript: core/dist is missing', 'ui: ui/dist/index.html is missing']);
    });

    it('rebuilds the TypeScript projects after a source file or a tsconfig changed', async () => {
      for (const changed of ['core/src/main.ts', 'tsconfig.base.json', 'core/tsconfig.json']) {
        await utimes(at(changed), EDITED, EDITED);
        expect(await outdated()).to.deep.equal([`typescript: ${changed} changed after the last build`]);
        await utimes(at(changed), SOURCES, SOURCES);
      }
    });

    it('bundles the service again when core was compiled after its bundle (a `tsc -b` alone) or the bundle is missing', async () => {
      await utimes(at('core/tsconfig.tsbuildinfo'), EDITED, EDITED);
      expect(await outdated()).to.deep.equal(['typescript: core/tsconfig.tsbuildinfo changed after the last build']);
      await rm(at('core/dist/bundle'), { recursive: true });
      expect(await outdated()).to.deep.equal(['typescript: core/dist/bundle/keyframe.mjs is missing']);
    });

    it('rebuilds after a source file was added, but not for other files or a folder whose entries changed', async () => {
      await utimes(at('core/src/notes.md'), EDITED, EDITED);
      await utimes(at('core/src'), EDITED, EDITED);
      expect(await outdated()).to.deep.equal([]);
      await writeFile(at('core/src/added.ts'), '');
      expect(await outdated()).to.deep.equal(['typescript: core/src/added.ts changed after the last build']);
    });

    it('rebuilds the UI after its sources changed, and both after the protocol types changed', async () => {
      await utimes(at('ui/src/app.tsx'), EDITED, EDITED);
      expect(await outdated()).to.deep.equal(['ui: ui/src/app.tsx changed after the last build']);
      await utimes(at('ui/src/app.tsx'), SOURCES, SOURCES);
      await utimes(at('core/src/protocol/state.ts'), EDITED, EDITED);
      expect(await outdated()).to.deep.equal([
        'typescript: core/src/protocol/state.ts changed after the last build',
        'ui: core/src/protocol/state.ts changed after the last build',
      ]);
    });
  });

  it('starts the service on this built tree without building, answers, and stops cleanly on Ctrl+C', async () => {
    const data = await createTempFolder();
    try {
      const service = await ServiceProcess.start({ dataFolder: data.path, main: START, legacyPort: 'off' });
      const client = await ProtocolClient.connect(service.url);
      await client.handshake();
      await client.close();
      service.child.kill('SIGINT');
      expect(await service.exited).to.deep.equal({ code: 0, signal: null });
      expect(service.printed).to.include('is running').and.include('SIGINT: stopping Keyframe').and.not.include('Building');
    } finally {
      await data.remove();
    }
  });
});
