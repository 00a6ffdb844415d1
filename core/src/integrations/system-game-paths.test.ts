import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SystemGamePaths } from './system-game-paths.js';

describe('SystemGamePaths', () => {
  let temp: string;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-paths-'));
  });
  afterEach(() => rm(temp, { recursive: true, force: true }));

  it('lists the Steam root under the home folder and every library its libraryfolders.vdf names, once each', async () => {
    const root = path.join(temp, '.local', 'share', 'Steam');
    const second = path.join(temp, 'Games');
    await mkdir(path.join(root, 'steamapps'), { recursive: true });
    await writeFile(
      path.join(root, 'steamapps', 'libraryfolders.vdf'),
      `"libraryfolders"\n{\n\t"0"\n\t{\n\t\t"path"\t\t"${root}"\n\t}\n\t"1"\n\t{\n\t\t"path"\t\t"${second}"\n\t}\n}\n`,
    );
    expect(await new SystemGamePaths({ KEYFRAME_GAME_HOME: temp }, 'linux').steamLibraries()).to.deep.equal([root, second]);
  });

  it('takes every location from the environment when set, which is how tests point integrations at temp folders', async () => {
    const paths = new SystemGamePaths(
      {
        KEYFRAME_STEAM_LIBRARIES: [path.join(temp, 'a'), path.join(temp, 'b')].join(path.delimiter),
        KEYFRAME_ROAMING_APPDATA: path.join(temp, 'roaming'),
        KEYFRAME_LOCAL_APPDATA: path.join(temp, 'local'),
        KEYFRAME_GAME_HOME: temp,
      },
      'linux',
      '/home/nobody',
    );
    expect(await paths.steamLibraries()).to.deep.equal([path.join(temp, 'a'), path.join(temp, 'b')]);
    expect([paths.roamingAppData(), paths.localAppData(), paths.home()]).to.deep.equal([
      path.join(temp, 'roaming'),
      path.join(temp, 'local'),
      temp,
    ]);
  });

  it('uses the platform folders otherwise', () => {
    const windows = new SystemGamePaths(
      { APPDATA: 'C:\\Users\\me\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' },
      'win32',
      'C:\\Users\\me',
    );
    expect(windows.roamingAppData()).to.equal('C:\\Users\\me\\AppData\\Roaming');
    expect(windows.localAppData()).to.equal('C:\\Users\\me\\AppData\\Local');
    const linux = new SystemGamePaths({}, 'linux', '/home/me');
    expect([linux.roamingAppData(), linux.localAppData()]).to.deep.equal(['/home/me/.config', '/home/me/.local/share']);
  });
});
