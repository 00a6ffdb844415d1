import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DiskGameFiles } from '../game-files.js';
import type { GamePaths } from '../game-integration.js';
import { SteamInstallation } from './steam-installation.js';
import { APP_MANIFEST, LEGACY, LOGIN_USERS } from './vdf.test.js';

export async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

const libraryFolders = (...folders: string[]) =>
  `"libraryfolders"\n{\n${folders.map((folder, index) => `\t"${index}"\n\t{\n\t\t"path"\t\t"${folder.replace(/\\/g, '\\\\')}"\n\t}\n`).join('')}}\n`;

describe('SteamInstallation', () => {
  let temp: string;
  let paths: GamePaths;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-steam-'));
    paths = {
      home: () => path.join(temp, 'home'),
      roamingAppData: () => path.join(temp, 'roaming'),
      localAppData: () => path.join(temp, 'local'),
      steamLibraries: async () => [path.join(temp, 'steam', '0'), path.join(temp, 'steam', '1')],
    };
  });
  afterEach(() => rm(temp, { recursive: true, force: true }));
  const steam = (platform: NodeJS.Platform = 'linux', environment: NodeJS.ProcessEnv = {}) =>
    new SteamInstallation(paths, new DiskGameFiles(), { platform, environment });

  it('knows where Steam installs itself on each system, from the home folder and Program Files', () => {
    const home = paths.home();
    expect(steam('linux').candidateRoots()).to.deep.equal([
      path.join(home, '.steam', 'steam'),
      path.join(home, '.local', 'share', 'Steam'),
      path.join(home, '.var', 'app', 'com.valvesoftware.Steam', '.local', 'share', 'Steam'),
    ]);
    expect(steam('darwin').candidateRoots()).to.deep.equal([path.join(home, 'Library', 'Application Support', 'Steam')]);
    expect(steam('win32', { 'ProgramFiles(x86)': 'D:\\Apps (x86)', ProgramFiles: 'D:\\Apps' }).candidateRoots()).to.deep.equal([
      'D:\\Apps (x86)\\Steam',
      'D:\\Apps\\Steam',
      'C:\\Program Files (x86)\\Steam',
    ]);
    expect(steam('win32').candidateRoots()).to.deep.equal(['C:\\Program Files (x86)\\Steam']);
  });

  it('finds the installed root (here the Flatpak) and the libraries of every libraryfolders.vdf, old layout or new, once each', async () => {
    expect(await steam().root()).to.equal(undefined);
    expect(await steam().libraryFolders()).to.deep.equal([]);
    const flatpak = path.join(paths.home(), '.var', 'app', 'com.valvesoftware.Steam', '.local', 'share', 'Steam');
    const games = path.join(temp, 'games');
    await write(path.join(flatpak, 'steamapps', 'libraryfolders.vdf'), libraryFolders(flatpak, games));
    expect(await steam().root()).to.equal(flatpak);
    expect(await steam().libraryFolders()).to.deep.equal([flatpak, games]);

    const native = path.join(paths.home(), '.steam', 'steam');
    await write(path.join(native, 'steamapps', 'libraryfolders.vdf'), LEGACY);
    expect(await steam().root()).to.equal(native);
    expect(await steam().libraryFolders()).to.deep.equal([native, 'D:\\SteamLibrary', '/mnt/games/steam', flatpak, games]);
  });

  it('names the account signed in last: MostRecent, else the newest Timestamp; none without loginusers.vdf', async () => {
    const root = path.join(paths.home(), '.local', 'share', 'Steam');
    await mkdir(path.join(root, 'steamapps'), { recursive: true });
    expect(await steam().activeUser()).to.equal(undefined);
    await write(path.join(root, 'config', 'loginusers.vdf'), LOGIN_USERS);
    expect(await steam().activeUser()).to.deep.equal({
      steamId64: '76561198000000002',
      accountName: 'ace_pilot',
      personaName: 'Ace "The" Pilot',
    });
    await write(
      path.join(root, 'config', 'loginusers.vdf'),
      LOGIN_USERS.replace('"MostRecent"\t\t"1"', '"MostRecent"\t\t"0"').replace('1710000000', '1600000000'),
    );
    expect((await steam().activeUser())?.accountName).to.equal('old_account');
  });

  it("finds a game's install folder by app id in whichever GamePaths library has its manifest", async () => {
    const [first, second] = [path.join(temp, 'steam', '0'), path.join(temp, 'steam', '1')];
    await mkdir(path.join(first, 'steamapps'), { recursive: true });
    await write(path.join(second, 'steamapps', 'appmanifest_730.acf'), APP_MANIFEST);
    expect(await steam().gameFolder(730)).to.equal(path.join(second, 'steamapps', 'common', 'Counter-Strike Global Offensive'));
    expect(await steam().gameFolder('440')).to.equal(undefined);
  });
});
