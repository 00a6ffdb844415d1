import { expect } from 'chai';
import { parseSteamLibraryFolders } from './vdf.js';

// The layout Steam has written since 2021 (one block per library, with its apps).
const CURRENT = String.raw`"libraryfolders"
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
const LEGACY = String.raw`"LibraryFolders"
{
	"TimeNextStatsReport"		"1626786321"
	"ContentStatsID"		"-4534937476231387524"
	"1"		"D:\\SteamLibrary"
	"2"		"/mnt/games/steam"
}
`;

describe('parseSteamLibraryFolders', () => {
  it('reads the path of every library block, unescaping backslashes', () => {
    expect(parseSteamLibraryFolders(CURRENT)).to.deep.equal(['C:\\Program Files (x86)\\Steam', 'D:\\SteamLibrary']);
  });

  it('reads the pre-2021 layout and skips its non-library keys', () => {
    expect(parseSteamLibraryFolders(LEGACY)).to.deep.equal(['D:\\SteamLibrary', '/mnt/games/steam']);
  });

  it('reads Linux paths, CRLF line ends, comments and unquoted tokens', () => {
    const text =
      '// written by Steam\r\nlibraryfolders\r\n{\r\n\t"0"\r\n\t{\r\n\t\tpath\t"/home/me/.local/share/Steam" // main\r\n\t}\r\n}\r\n';
    expect(parseSteamLibraryFolders(text)).to.deep.equal(['/home/me/.local/share/Steam']);
  });

  it('lists a library once even if it appears twice, and skips empty paths', () => {
    const text = '"libraryfolders" { "0" { "path" "/a" } "1" { "path" "/a" } "2" { "path" "" } "3" { "label" "x" } }';
    expect(parseSteamLibraryFolders(text)).to.deep.equal(['/a']);
  });

  for (const [name, text] of [
    ['empty text', ''],
    ['JSON', '{"libraryfolders": {"0": {"path": "/a"}}}'],
    ['an unterminated string', '"libraryfolders" { "0" { "path" "/a'],
    ['unbalanced braces', '}}} "libraryfolders" {{ "0"'],
    ['binary noise', '\u0000\u0001\u00ff{"'],
  ] as const) {
    it(`never throws: ${name}`, () => {
      expect(() => parseSteamLibraryFolders(text)).to.not.throw();
      expect(parseSteamLibraryFolders(text)).to.be.an('array');
    });
  }
});
