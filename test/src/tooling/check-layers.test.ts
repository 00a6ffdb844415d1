// scripts/check-layers.mjs on small source trees: which imports it refuses, what it says, and how
// the exceptions list lets known debt through without letting it grow or go stale.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempFolder, type TempFolder } from '@keyframe/integration-testkit';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = path.join(REPO, 'scripts', 'check-layers.mjs');

interface Exception {
  from: string;
  to: string;
  reason: string;
}

interface Run {
  code: number | null;
  output: string;
}

describe('check-layers (npm run lint, npm test)', function () {
  this.timeout(30_000);
  let temp: TempFolder;
  let src: string;

  beforeEach(async () => {
    temp = await createTempFolder('keyframe-layers-');
    src = path.join(temp.path, 'src');
  });
  afterEach(() => temp.remove());

  async function tree(files: Record<string, string>): Promise<void> {
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(src, file)), { recursive: true });
      await writeFile(path.join(src, file), text);
    }
  }

  async function check(exceptions: readonly Exception[] = []): Promise<Run> {
    const exceptionsFile = path.join(temp.path, 'exceptions.json');
    await writeFile(exceptionsFile, JSON.stringify({ exceptions }));
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [SCRIPT, '--src', src, '--exceptions', exceptionsFile], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });
  }

  /** Checks the tree and expects a failure whose output names every one of `messages`. */
  async function expectRefused(files: Record<string, string>, ...messages: string[]): Promise<void> {
    await tree(files);
    const result = await check();
    expect(result.code, result.output).to.equal(1);
    for (const message of messages) expect(result.output).to.contain(message);
  }

  it('passes a tree whose imports all point down, and counts its folders and arrows', async () => {
    await tree({
      'main.ts': "import { service } from './services/service.js';\nservice();\n",
      'services/service.ts':
        "import type { Wire } from '../protocol/wire.js';\nexport const service = (): Wire | undefined => undefined;\n",
      'protocol/wire.ts': 'export type Wire = string;\n',
      'sdk/contract.ts': "export type { Wire } from '../protocol/wire.js';\n",
    });
    const result = await check();
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.contain('4 folders and files, 3 arrows, 0 against the layer order');
  });

  it('refuses an upward import, naming the file, the import and the rule', async () => {
    await expectRefused(
      {
        'media/encoder.ts': "import { settings } from '../services/settings.js';\nexport const encoder = settings;\n",
        'services/settings.ts': 'export const settings = {};\n',
      },
      "core/src/media/encoder.ts imports '../services/settings.js' (services/settings.ts)",
      'upward import: media/ (media) must not import services/ (features, a higher layer)',
    );
  });

  it('sees type-only imports, re-exports and dynamic imports with a literal', async () => {
    await expectRefused(
      {
        'protocol/a.ts': "import type { T } from '../transport/t.js';\nexport type A = T;\n",
        'protocol/b.ts': "export { t } from '../transport/t.js';\n",
        'protocol/c.ts': "export const load = () => import('../transport/t.js');\n",
        'transport/t.ts': 'export type T = number;\nexport const t = 1;\n',
      },
      ...['a', 'b', 'c'].map((file) => `core/src/protocol/${file}.ts imports '../transport/t.js'`),
    );
  });

  it('keeps the sdk a leaf over protocol and support, even for downward imports', async () => {
    await expectRefused(
      {
        'sdk/contract.ts': "import { gpu } from '../platform/gpu.js';\nexport const contract = gpu;\n",
        'platform/gpu.ts': 'export const gpu = () => undefined;\n',
      },
      'sdk/ may import only protocol/, support/',
    );
  });

  it('refuses an arrow between two features that the peers list does not name', async () => {
    await expectRefused(
      {
        'hotkeys/frames.ts': "import { tape } from '../feeds/tape.js';\nexport const frames = tape;\n",
        'feeds/tape.ts': 'export const tape = 1;\n',
      },
      'hotkeys/ and feeds/ are both in layer "features"; this arrow is not listed in its peers',
    );
  });

  it('refuses a folder that is in no layer', async () => {
    await expectRefused(
      {
        'gadgets/gadget.ts': "import { wire } from '../protocol/wire.js';\nexport const gadget = wire;\n",
        'protocol/wire.ts': 'export const wire = 1;\n',
      },
      'gadgets/ is in no layer of scripts/layers.json',
    );
  });

  it('lets a listed exception through, and fails once the exception is no longer needed', async () => {
    const exception = { from: 'media/encoder.ts', to: 'services/settings.ts', reason: 'known debt' };
    await tree({
      'media/encoder.ts': "import { settings } from '../services/settings.js';\nexport const encoder = settings;\n",
      'services/settings.ts': 'export const settings = {};\n',
    });
    const excepted = await check([exception]);
    expect(excepted.code, excepted.output).to.equal(0);
    expect(excepted.output).to.contain('1 against the layer order (1 upward, 0 other), 1 file imports excepted');

    await writeFile(path.join(src, 'media', 'encoder.ts'), 'export const encoder = {};\n');
    const stale = await check([exception]);
    expect(stale.code, stale.output).to.equal(1);
    expect(stale.output).to.contain(
      'exception no longer needed, remove it from scripts/layer-exceptions.json: media/encoder.ts -> services/settings.ts',
    );
  });

  it('ignores test files, which may wire any layer', async () => {
    await tree({
      'protocol/wire.test.ts': "import { service } from '../services/service.js';\nservice();\n",
      'services/service.ts': 'export const service = () => undefined;\n',
    });
    const result = await check();
    expect(result.code, result.output).to.equal(0);
  });
});
