import { expect } from 'chai';
import { outputLogCandidates } from './output-log-locations.js';

describe('outputLogCandidates', () => {
  it("puts the log beside the running executable first, in that path's own style", () => {
    expect(outputLogCandidates('C:\\Games\\Rust\\RustClient.exe', [])).to.deep.equal(['C:\\Games\\Rust\\output_log.txt']);
    expect(outputLogCandidates('/games/Rust/RustClient.exe', ['/steam'])).to.deep.equal([
      '/games/Rust/output_log.txt',
      '/steam/steamapps/common/Rust/output_log.txt',
    ]);
  });

  it('falls back to the Rust folder of each Steam library when the executable is unknown', () => {
    expect(outputLogCandidates(undefined, ['/a', '/b'])).to.deep.equal([
      '/a/steamapps/common/Rust/output_log.txt',
      '/b/steamapps/common/Rust/output_log.txt',
    ]);
    expect(outputLogCandidates('', [])).to.deep.equal([]);
  });

  it('lists a file once when the executable is in a Steam library', () => {
    expect(outputLogCandidates('/steam/steamapps/common/Rust/RustClient.exe', ['/steam'])).to.deep.equal([
      '/steam/steamapps/common/Rust/output_log.txt',
    ]);
  });
});
