import { expect } from 'chai';
import { overloadNotice } from './overload-notice.js';

describe('overloadNotice', () => {
  const level = { preset: 'superfast', frameRate: 60, resolution: '1080p' };
  const verdict = { overloaded: true, speed: 0.62, framesPerSecond: 37, targetFrameRate: 60, droppedFrames: 12 };

  it('says what is wrong, what the next recordings use, and what the user can change', () => {
    const notice = overloadNotice({ ...verdict, reason: 'speed' }, level, { preset: 'ultrafast', frameRate: 30, resolution: '1080p' });
    expect(notice.title).to.equal("Recording can't keep up");
    expect(notice.type).to.equal('warning');
    expect(notice.description).to.contain('slower than real time (0.62x): the video would come out shorter than the time recorded');
    expect(notice.description).to.contain('the next ones start at ultrafast, 30 fps, 1080p instead of superfast, 60 fps, 1080p');
    expect(notice.description).to.contain('choose a lower resolution or frame rate');
  });

  it('names lost frames, dropped frames, and the end of the ladder', () => {
    expect(overloadNotice({ ...verdict, reason: 'frameRate' }, level, undefined).description)
      .to.contain('37 frames a second reach the file instead of 60')
      .and.to.contain('It already records at the lowest level Keyframe steps down to (superfast, 60 fps, 1080p)');
    expect(overloadNotice({ ...verdict, reason: 'droppedFrames' }, level, undefined).description).to.contain(
      'dropped or repeated 12 frames',
    );
  });
});
