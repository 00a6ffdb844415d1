import { expect } from 'chai';
import { nestsDeeperThan } from './json-nesting.js';

describe('nestsDeeperThan', () => {
  it('counts arrays and objects inside one another', () => {
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 4)).to.equal(false);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).to.equal(true);
    expect(nestsDeeperThan('[[],[],[]]', 2)).to.equal(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`, 1)).to.equal(false);
  });

  it('scans a 100,000-deep text without recursing', () => {
    expect(nestsDeeperThan(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 64)).to.equal(true);
  });
});
