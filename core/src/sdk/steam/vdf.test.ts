import { expect } from 'chai';
import { parseVdf, vdfValue } from './vdf.js';

// The layout Steam has written since 2021 (one block per library, with its apps).
export const CURRENT = String.raw`"libraryfolders"
{
	"0"
	{
		"path"		"C:\\Program Files (x86)\\Steam"
		"label"		""
		"contentid"		"5049583727891146452"
		"totalsize"		"0"
		"update_clean_bytes_tally"		"0"
		"time_last_update_verified"		"0"
		"apps"
		{
			"228980"		"414125037"
		}
	}
	"1"
	{
		"path"		"D:\\SteamLibrary"
		"label"		"games"
		"contentid"		"3710328716581294530"
		"totalsize"		"1000186310656"
		"apps"
		{
			"730"		"36544925353"
		}
	}
}
`;

// The layout before 2021: numbered entries that are the paths themselves.
export const LEGACY = String.raw`"LibraryFolders"
{
	"TimeNextStatsReport"		"1626786321"
	"ContentStatsID"		"-4534937476231387524"
	"1"		"D:\\SteamLibrary"
	"2"		"/mnt/games/steam"
}
`;

// loginusers.vdf as Steam writes it (one account signed in last).
export const LOGIN_USERS = String.raw`"users"
{
	"76561198000000001"
	{
		"AccountName"		"old_account"
		"PersonaName"		"Old One"
		"RememberPassword"		"1"
		"MostRecent"		"0"
		"Timestamp"		"1700000000"
	}
	"76561198000000002"
	{
		"AccountName"		"ace_pilot"
		"PersonaName"		"Ace \"The\" Pilot"
		"RememberPassword"		"1"
		"WantsOfflineMode"		"0"
		"MostRecent"		"1"
		"Timestamp"		"1710000000"
	}
}
`;

// An app manifest (appmanifest_730.acf), shortened.
export const APP_MANIFEST = String.raw`"AppState"
{
	"appid"		"730"
	"universe"		"1"
	"name"		"Counter-Strike 2"
	"StateFlags"		"4"
	"installdir"		"Counter-Strike Global Offensive"
	"LastUpdated"		"1763700000"
	"SizeOnDisk"		"36544925353"
	"InstalledDepots"
	{
		"2347770"
		{
			"manifest"		"2563452360453227402"
			"size"		"36544925353"
		}
	}
	"UserConfig"
	{
		"language"		"english"
	}
}
`;

describe('parseVdf', () => {
  it('reads nested blocks of libraryfolders.vdf, unescaping backslashes', () => {
    const parsed = parseVdf(CURRENT);
    expect(Object.keys(parsed)).to.deep.equal(['libraryfolders']);
    const libraries = parsed.libraryfolders as Record<string, Record<string, unknown>>;
    expect(libraries['0']).to.deep.include({ path: 'C:\\Program Files (x86)\\Steam', label: '' });
    expect(libraries['1']!.apps).to.deep.equal({ '730': '36544925353' });
  });

  it('reads the pre-2021 libraryfolders.vdf, loginusers.vdf (quotes escaped) and an app manifest', () => {
    expect(parseVdf(LEGACY)).to.deep.equal({
      LibraryFolders: {
        TimeNextStatsReport: '1626786321',
        ContentStatsID: '-4534937476231387524',
        '1': 'D:\\SteamLibrary',
        '2': '/mnt/games/steam',
      },
    });
    const users = parseVdf(LOGIN_USERS).users as Record<string, Record<string, string>>;
    expect(users['76561198000000002']).to.include({ AccountName: 'ace_pilot', PersonaName: 'Ace "The" Pilot', MostRecent: '1' });
    const manifest = parseVdf(APP_MANIFEST).AppState as Record<string, unknown>;
    expect(manifest).to.include({ appid: '730', installdir: 'Counter-Strike Global Offensive' });
    expect(manifest.InstalledDepots).to.deep.equal({ '2347770': { manifest: '2563452360453227402', size: '36544925353' } });
  });

  it('reads unquoted tokens, comments, CRLF, \\n and \\t escapes, and ignores [$WIN32]-style conditionals', () => {
    const text =
      '// written by hand\r\nSettings\r\n{\r\n\tvolume 0.5 // loud\r\n\t"title"\t"line\\none\\ttab"\r\n' +
      '\t"bind" "F1" [$WIN32]\r\n\t"bind" "F2" [!$WIN32]\r\n\tpaths [$OSX] { a b }\r\n}\r\n';
    expect(parseVdf(text)).to.deep.equal({ Settings: { volume: '0.5', title: 'line\none\ttab', bind: 'F2', paths: { a: 'b' } } });
  });

  it('merges a block given twice, keeps __proto__ a plain key, and looks keys up without case', () => {
    const parsed = parseVdf('"a" { "x" "1" } "a" { "y" "2" } "__proto__" "p"');
    expect(parsed.a).to.deep.equal({ x: '1', y: '2' });
    expect(Object.keys(parsed)).to.deep.equal(['a', '__proto__']);
    expect(Object.getPrototypeOf(parsed)).to.equal(Object.prototype);
    expect(vdfValue(parseVdf(LEGACY), 'libraryfolders')).to.be.an('object');
    expect(vdfValue(undefined, 'x')).to.equal(undefined);
  });

  for (const [name, text] of [
    ['empty text', ''],
    ['JSON', '{"libraryfolders": {"0": {"path": "/a"}}}'],
    ['an unterminated string', '"libraryfolders" { "0" { "path" "/a'],
    ['unbalanced braces', '}}} "libraryfolders" {{ "0"'],
    ['binary noise', '\u0000\u0001\u00ff{"]'],
  ] as const) {
    it(`never throws: ${name}`, () => {
      expect(parseVdf(text)).to.be.an('object');
    });
  }
});
