import type { GamePathsService } from '@keyframe/core';
import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { minecraftLogCandidates } from './minecraft-log-locations.js';

describe('minecraftLogCandidates', () => {
  let temp: string;
  let paths: GamePathsService;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'block-sandbox-locations-'));
    paths = {
      steamLibraries: async () => [],
      roamingAppData: () => path.join(temp, 'roaming'),
      localAppData: () => path.join(temp, 'local'),
      home: () => path.join(temp, 'home'),
    };
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  it('lists the vanilla launcher folder of Windows, Linux and macOS first', async () => {
    expect(await minecraftLogCandidates(paths)).to.deep.equal([
      path.join(temp, 'roaming', '.minecraft', 'logs', 'latest.log'),
      path.join(temp, 'home', '.minecraft', 'logs', 'latest.log'),
      path.join(temp, 'roaming', 'minecraft', 'logs', 'latest.log'),
    ]);
  });

  it('adds every Prism Launcher instance, in both game folder spellings', async () => {
    for (const instance of ['1.21 Survival', 'Fabulously Optimized'])
      await mkdir(path.join(temp, 'local', 'PrismLauncher', 'instances', instance), { recursive: true });
    await writeFile(path.join(temp, 'local', 'PrismLauncher', 'instances', 'instgroups.json'), '{}');
    await mkdir(
      path.join(temp, 'home', '.var', 'app', 'org.prismlauncher.PrismLauncher', 'data', 'PrismLauncher', 'instances', 'Flatpak'),
      { recursive: true },
    );
    const candidates = await minecraftLogCandidates(paths);
    expect(candidates.slice(3)).to.deep.equal([
      path.join(temp, 'local', 'PrismLauncher', 'instances', '1.21 Survival', '.minecraft', 'logs', 'latest.log'),
      path.join(temp, 'local', 'PrismLauncher', 'instances', '1.21 Survival', 'minecraft', 'logs', 'latest.log'),
      path.join(temp, 'local', 'PrismLauncher', 'instances', 'Fabulously Optimized', '.minecraft', 'logs', 'latest.log'),
      path.join(temp, 'local', 'PrismLauncher', 'instances', 'Fabulously Optimized', 'minecraft', 'logs', 'latest.log'),
      path.join(
        temp,
        'home',
        '.var',
        'app',
        'org.prismlauncher.PrismLauncher',
        'data',
        'PrismLauncher',
        'instances',
        'Flatpak',
        '.minecraft',
        'logs',
        'latest.log',
      ),
      path.join(
        temp,
        'home',
        '.var',
        'app',
        'org.prismlauncher.PrismLauncher',
        'data',
        'PrismLauncher',
        'instances',
        'Flatpak',
        'minecraft',
        'logs',
        'latest.log',
      ),
    ]);
  });

  it('lists a folder once where two locations are the same (macOS: roaming = local)', async () => {
    paths = { ...paths, localAppData: () => path.join(temp, 'roaming') };
    await mkdir(path.join(temp, 'roaming', 'PrismLauncher', 'instances', 'A'), { recursive: true });
    const candidates = await minecraftLogCandidates(paths);
    expect(candidates.filter((candidate) => candidate.includes(`${path.sep}A${path.sep}`))).to.have.length(2);
  });
});
