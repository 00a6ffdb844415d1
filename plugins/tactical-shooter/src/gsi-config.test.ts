import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GSI_CONFIG_FILE_NAME, gsiConfig, gsiConfigBody } from './gsi-config.js';
import { recordedData } from './recorded-payloads.js';

// The compiled test runs from plugins/tactical-shooter/dist/.
const SPEC = fileURLToPath(new URL('../../../../shared/SPEC.md', import.meta.url));
const GAME = ['steamapps', 'common', 'Counter-Strike Global Offensive', 'game'];
const TOKEN = 'TestPushToken0123456789';
const GSI_CONFIG = gsiConfig(TOKEN, 1340);
const GSI_CONFIG_TEXT = GSI_CONFIG.text;
const AUTH_LINES = `\t"auth"\n\t{\n\t\t"token"\t"${TOKEN}"\n\t}\n`;
/** The file versions before the push token wrote, untouched since. */
const BEFORE_THE_TOKEN = GSI_CONFIG.stamp(gsiConfigBody(TOKEN, 1340).replace(AUTH_LINES, ''));

/** The key/value lines of a KeyValues text: `[depth, key, value]`, comments left out. */
function keyValueLines(text: string): Array<[number, string, string | undefined]> {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('//') && !/^\s*[{}]\s*$/.test(line))
    .map((line) => {
      const [key, value] = [...line.matchAll(/"([^"]*)"/g)].map((match) => match[1]!);
      return [/^\t*/.exec(line)![0].length, key!, value];
    });
}

describe('GSI config', () => {
  let temp: string;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-tactical-shooter-'));
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  describe('text', () => {
    it('is one "keyframe" block with SPEC\'s values and data sections, and the auth token SPEC lacks', () => {
      expect(GSI_CONFIG_FILE_NAME).to.equal('gamestate_integration_keyframe.cfg');
      expect(keyValueLines(GSI_CONFIG_TEXT)).to.deep.equal([
        [0, 'keyframe', undefined],
        [1, 'uri', 'http://localhost:1340/'],
        [1, 'timeout', '5.0'],
        [1, 'buffer', '0.1'],
        [1, 'throttle', '0.2'],
        [1, 'heartbeat', '2.0'],
        [1, 'auth', undefined],
        [2, 'token', TOKEN],
        [1, 'data', undefined],
        [2, 'player_id', '1'],
        [2, 'provider', '1'],
        [2, 'map', '1'],
        [2, 'player_match_stats', '1'],
      ]);
    });

    it('is shaped like the recorded configs: name line, braces on their own lines, balanced', () => {
      const lines = GSI_CONFIG_TEXT.split('\n');
      const body = lines.filter((line) => !line.startsWith('//') && line !== '');
      expect(body[0]).to.equal('"keyframe"');
      expect(body[1]).to.equal('{');
      expect(body.at(-1)).to.equal('}');
      expect(body.filter((line) => line.trim() === '{')).to.have.length(3);
      expect(body.filter((line) => line.trim() === '}')).to.have.length(3);
      expect(GSI_CONFIG_TEXT).to.not.include('\r');
      expect(GSI_CONFIG_TEXT.endsWith('}\n')).to.equal(true);
      expect(/^[\x09\x0a\x20-\x7e]*$/.test(GSI_CONFIG_TEXT), 'ASCII only').to.equal(true);
    });

    it("uses only keys the recorded third-party configs use (auth and token: csgostate's)", function () {
      recordedData.skipIfAbsent(this);
      const recorded = new Set(
        ['gamestate_integration_csgogsi.cfg', 'gamestate_integration_csgostate.cfg'].flatMap((file) =>
          keyValueLines(recordedData.text(file).replace(/ {4}/g, '\t')).map(([, key]) => key),
        ),
      );
      for (const [, key] of keyValueLines(GSI_CONFIG_TEXT).slice(1)) expect(recorded.has(key), key).to.equal(true);
    });

    it('matches the table of SPEC\'s "Shooter push configuration"', function () {
      if (!existsSync(SPEC)) {
        this.test!.title += ' (skipped: ../shared/SPEC.md is absent)';
        this.skip();
      }
      const spec = readFileSync(SPEC, 'utf8');
      const section = spec.slice(spec.indexOf('Shooter push configuration ('));
      const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| Key |')));
      const rows = [...table.matchAll(/^\| `([a-z_]+)` \| `([^`]+)` \|$/gm)].map((match) => [match[1], match[2]]);
      expect(rows).to.have.length(5);
      const ours = new Map(keyValueLines(GSI_CONFIG_TEXT).map(([, key, value]) => [key, value]));
      for (const [key, value] of rows) expect(ours.get(key!), key).to.equal(value);
      const dataKeys = /keys ((?:`[a-z_]+`(?:, )?)+)/.exec(table)![1]!.match(/[a-z_]+/g);
      expect(
        keyValueLines(GSI_CONFIG_TEXT)
          .filter(([depth, key]) => depth === 2 && key !== 'token')
          .map(([, key]) => key),
      ).to.deep.equal(dataKeys);
    });

    it('is the text earlier versions wrote plus the auth block, so their untouched files are updated', async () => {
      expect(createHash('sha256').update(BEFORE_THE_TOKEN, 'utf8').digest('hex'), 'the text those versions wrote').to.equal(
        '49726cb7967e43a016c8b8a867fac75ad56dab0df45775b192d4e2c0ea6ca26a',
      );
      await mkdir(path.join(temp, 'cfg'));
      await writeFile(path.join(temp, 'cfg', GSI_CONFIG_FILE_NAME), BEFORE_THE_TOKEN);
      expect(await GSI_CONFIG.install(path.join(temp, 'cfg'))).to.equal('written');
      expect(await readFile(path.join(temp, 'cfg', GSI_CONFIG_FILE_NAME), 'utf8')).to.equal(GSI_CONFIG_TEXT);
    });

    it('carries a marker and the hash of its own body', () => {
      expect(GSI_CONFIG_TEXT.split('\n')[0]).to.match(/^\/\/ Written by Keyframe/);
      expect(GSI_CONFIG.isUntouched(GSI_CONFIG_TEXT)).to.equal(true);
      expect(GSI_CONFIG.isUntouched(GSI_CONFIG_TEXT.replace('"0.2"', '"0.1"'))).to.equal(false);
      expect(GSI_CONFIG.isUntouched(GSI_CONFIG_TEXT.split('\n').slice(1).join('\n'))).to.equal(false);
      expect(GSI_CONFIG.isUntouched('')).to.equal(false);
    });
  });

  describe('install', () => {
    const file = () => path.join(temp, 'cfg', GSI_CONFIG_FILE_NAME);

    it('writes the file when it is missing, creating the cfg folder', async () => {
      expect(await GSI_CONFIG.install(path.join(temp, 'cfg'))).to.equal('written');
      expect(await readFile(file(), 'utf8')).to.equal(GSI_CONFIG_TEXT);
      expect(await readdir(path.join(temp, 'cfg')), 'no temp file left').to.deep.equal([GSI_CONFIG_FILE_NAME]);
    });

    it('does nothing when the file is already ours and current', async () => {
      await GSI_CONFIG.install(path.join(temp, 'cfg'));
      expect(await GSI_CONFIG.install(path.join(temp, 'cfg'))).to.equal('unchanged');
    });

    it('treats a copy whose line ends became CRLF as unchanged', async () => {
      await mkdir(path.join(temp, 'cfg'));
      await writeFile(file(), GSI_CONFIG_TEXT.replace(/\n/g, '\r\n'));
      expect(await GSI_CONFIG.install(path.join(temp, 'cfg'))).to.equal('unchanged');
    });

    it('updates an older text of ours that nobody changed', async () => {
      await mkdir(path.join(temp, 'cfg'));
      const older = GSI_CONFIG.stamp('"keyframe"\n{\n\t"uri"\t\t"http://localhost:1339/"\n}\n');
      await writeFile(file(), older);
      expect(await GSI_CONFIG.install(path.join(temp, 'cfg'))).to.equal('written');
      expect(await readFile(file(), 'utf8')).to.equal(GSI_CONFIG_TEXT);
    });

    it('keeps a file the user edited, even with our marker still in it', async () => {
      await mkdir(path.join(temp, 'cfg'));
      const edited = GSI_CONFIG_TEXT.replace('"heartbeat"\t"2.0"', '"heartbeat"\t"10.0"');
      await writeFile(file(), edited);
      expect(await GSI_CONFIG.install(path.join(temp, 'cfg'))).to.equal('kept-user-edit');
      expect(await readFile(file(), 'utf8')).to.equal(edited);
    });

    it('keeps a file with our name that we did not write, reporting it stale when it lacks the token', async () => {
      await mkdir(path.join(temp, 'cfg'));
      const handMade = '"keyframe"\n{\n "uri" "http://127.0.0.1:1340"\n}\n';
      await writeFile(file(), handMade);
      expect(await GSI_CONFIG.install(path.join(temp, 'cfg'))).to.equal('kept-stale-user-edit');
      expect(await readFile(file(), 'utf8')).to.equal(handMade);
      const withToken = `"keyframe"\n{\n "uri" "http://127.0.0.1:1340"\n "auth" { "token" "${TOKEN}" }\n}\n`;
      await writeFile(file(), withToken);
      expect(await GSI_CONFIG.install(path.join(temp, 'cfg'))).to.equal('kept-user-edit');
      expect(await readFile(file(), 'utf8')).to.equal(withToken);
    });

    it("fails with the file system's error when the folder cannot be created", async () => {
      await writeFile(path.join(temp, 'not-a-folder'), '');
      let error: unknown;
      try {
        await GSI_CONFIG.install(path.join(temp, 'not-a-folder', 'cfg'));
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(Error);
    });
  });

  describe('foldersInLibraries', () => {
    async function library(name: string, withGame: boolean): Promise<string> {
      const folder = path.join(temp, name);
      await mkdir(path.join(folder, 'steamapps', 'common'), { recursive: true });
      if (withGame) await mkdir(path.join(folder, ...GAME, 'csgo'), { recursive: true });
      return folder;
    }

    it('finds game/csgo/cfg in each library that has the game', async () => {
      const withGame = await library('steam', true);
      const without = await library('empty', false);
      expect(await GSI_CONFIG.foldersInLibraries([withGame, without, path.join(temp, 'missing')])).to.deep.equal([
        path.join(withGame, ...GAME, 'csgo', 'cfg'),
      ]);
    });

    it('ignores an old CS:GO install that has no game/csgo folder', async () => {
      const old = await library('old', false);
      await mkdir(path.join(old, 'steamapps', 'common', 'Counter-Strike Global Offensive', 'csgo', 'cfg'), { recursive: true });
      expect(await GSI_CONFIG.foldersInLibraries([old])).to.deep.equal([]);
    });

    it('finds nothing without libraries', async () => {
      expect(await GSI_CONFIG.foldersInLibraries([])).to.deep.equal([]);
    });
  });

  describe('folderOfExecutable', () => {
    it('goes from game/bin/<platform>/cs2(.exe) to game/csgo/cfg when the game folder is there', async () => {
      const game = path.join(temp, 'cs2', 'game');
      await mkdir(path.join(game, 'csgo'), { recursive: true });
      for (const exe of [path.join(game, 'bin', 'win64', 'cs2.exe'), path.join(game, 'bin', 'linuxsteamrt64', 'cs2')]) {
        expect(await GSI_CONFIG.folderOfExecutable(exe)).to.equal(path.join(game, 'csgo', 'cfg'));
      }
      expect(await GSI_CONFIG.folderOfExecutable(path.join(temp, 'elsewhere', 'bin', 'cs2'))).to.equal(undefined);
    });
  });
});
