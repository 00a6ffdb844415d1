import { expect } from 'chai';
import { describeEncodeLevel } from '../protocol/index.js';
import { stepDown } from './encode-step-down.js';

describe('stepDown', () => {
  const defaults = { preset: 'superfast', frameRate: 60, resolution: '1080p' };

  it('takes the faster preset first when the encode was only a little behind', () => {
    expect(stepDown(defaults, 0.93)).to.deep.equal({ preset: 'ultrafast', frameRate: 60, resolution: '1080p' });
  });

  it('then halves the frame rate, then takes the next smaller resolution, as far as the shortfall needs', () => {
    expect(stepDown(defaults, 0.7)).to.deep.equal({ preset: 'ultrafast', frameRate: 30, resolution: '1080p' });
    expect(stepDown(defaults, 0.3)).to.deep.equal({ preset: 'ultrafast', frameRate: 30, resolution: '720p' });
    expect(stepDown({ preset: 'ultrafast', frameRate: 30, resolution: '1080p' }, 0.9)).to.deep.equal({
      preset: 'ultrafast',
      frameRate: 30,
      resolution: '720p',
    });
  });

  it('goes down one resolution at a time and skips the preset for encoders without one', () => {
    expect(stepDown({ preset: null, frameRate: 60, resolution: '4K' }, 0.9)).to.deep.equal({
      preset: null,
      frameRate: 30,
      resolution: '4K',
    });
    expect(stepDown({ preset: null, frameRate: 30, resolution: '4K' }, 0.9)).to.deep.equal({
      preset: null,
      frameRate: 30,
      resolution: '1440p',
    });
  });

  it('stops at the bottom of the ladder: the fastest preset, 30 fps, 720p', () => {
    expect(stepDown(defaults, 0.01)).to.deep.equal({ preset: 'ultrafast', frameRate: 30, resolution: '720p' });
    expect(stepDown({ preset: 'ultrafast', frameRate: 30, resolution: '720p' }, 0.5)).to.equal(undefined);
    expect(stepDown({ preset: null, frameRate: 24, resolution: '720p' }, 0.5)).to.equal(undefined);
  });

  it('describes a level for people', () => {
    expect(describeEncodeLevel({ preset: 'ultrafast', frameRate: 30, resolution: '720p' })).to.equal('ultrafast, 30 fps, 720p');
    expect(describeEncodeLevel({ preset: null, frameRate: 30, resolution: '720p' })).to.equal('30 fps, 720p');
  });
});
