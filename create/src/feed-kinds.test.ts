// The starter is published without a dependency on the SDK, so it lists the feed kinds itself: one
// template for each kind the SDK has, no more.
import { FEED_KINDS as SDK_FEED_KINDS } from '@keyframe/core';
import { expect } from 'chai';
import { FEED_KINDS } from './feed-kinds.js';

describe('the starter feed kinds', () => {
  it('are the SDK feed kinds', () => {
    expect([...FEED_KINDS].sort()).to.deep.equal([...SDK_FEED_KINDS].sort());
  });
});
