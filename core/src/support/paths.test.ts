import { expect } from 'chai';
import { pathRules } from './paths.js';

describe('path rules', () => {
  describe('on Linux', () => {
    const linux = pathRules('linux');

    it('tells apart two files whose names differ only in case', () => {
      expect(linux.samePath('/videos/Clip.mp4', '/videos/clip.mp4')).to.equal(false);
      expect(linux.pathKey('/videos/Clip.mp4')).to.not.equal(linux.pathKey('/videos/clip.mp4'));
    });

    it('takes the same file written with extra segments or either separator as one', () => {
      expect(linux.samePath('/videos/a/../clip.mp4', '/videos/./clip.mp4')).to.equal(true);
      expect(linux.samePath('/videos\\clip.mp4', '/videos/clip.mp4')).to.equal(true);
    });

    it('puts a file inside its folder only when the case matches', () => {
      expect(linux.isWithin('/videos', '/videos/game/clip.mp4')).to.equal(true);
      expect(linux.isWithin('/videos', '/Videos/game/clip.mp4')).to.equal(false);
    });
  });

  for (const platform of ['win32', 'darwin'] as const) {
    describe(`on ${platform}`, () => {
      const rules = pathRules(platform);
      const root = platform === 'win32' ? 'C:\\Videos' : '/Videos';

      it('takes names that differ only in case as the same file', () => {
        expect(rules.samePath(`${root}/Clip.mp4`, `${root.toLowerCase()}/CLIP.mp4`)).to.equal(true);
        expect(rules.pathKey(`${root}/Clip.mp4`)).to.equal(rules.pathKey(`${root.toUpperCase()}/clip.MP4`));
      });

      it('puts a file inside its folder whatever the case', () => {
        expect(rules.isWithin(root.toUpperCase(), `${root}/game/clip.mp4`)).to.equal(true);
        expect(rules.isWithin(root.toLowerCase(), `${root}/clip.mp4`)).to.equal(true);
      });
    });
  }

  it('reads backslashes as separators on Windows', () => {
    const windows = pathRules('win32');
    expect(windows.samePath('C:\\Videos\\clip.mp4', 'c:/videos/clip.mp4')).to.equal(true);
    expect(windows.isWithin('C:\\Videos', 'D:\\Videos\\clip.mp4')).to.equal(false);
  });

  it('counts the folder itself as within it', () => {
    expect(pathRules('linux').isWithin('/videos', '/videos/')).to.equal(true);
  });

  it('keeps siblings and paths that climb out of the folder outside it', () => {
    const linux = pathRules('linux');
    expect(linux.isWithin('/videos', '/videos-old/clip.mp4')).to.equal(false);
    expect(linux.isWithin('/videos', '/videos/../secrets')).to.equal(false);
    expect(linux.isWithin('/videos/game', '/videos')).to.equal(false);
    expect(linux.isWithin('/videos', '/videos/..clip.mp4')).to.equal(true);
  });
});
