import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { locateTool } from '../../media/ffmpeg-toolbox.js';
import { decodePng, encodePng } from './png.js';

describe('PNG frames', function () {
  this.timeout(20000);
  let folder: string;
  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-png-'));
  });
  after(() => rm(folder, { recursive: true, force: true }));

  it('reads what ffmpeg writes, pixel for pixel, and what it reads itself', async () => {
    const ffmpeg = locateTool('ffmpeg').path;
    const source = ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=1,noise=alls=40:allf=u', '-frames:v', '1'];
    await promisify(execFile)(ffmpeg, ['-loglevel', 'error', ...source, '-y', path.join(folder, 'frame.png')]);
    await promisify(execFile)(ffmpeg, [
      '-loglevel',
      'error',
      '-i',
      path.join(folder, 'frame.png'),
      '-pix_fmt',
      'rgb24',
      '-f',
      'rawvideo',
      '-y',
      path.join(folder, 'frame.rgb'),
    ]);
    const decoded = decodePng(await readFile(path.join(folder, 'frame.png')));
    expect({ width: decoded.width, height: decoded.height }).to.deep.equal({ width: 320, height: 180 });
    expect(decoded.data.equals(await readFile(path.join(folder, 'frame.rgb')))).to.equal(true);

    const again = decodePng(encodePng(decoded));
    expect(again.data.equals(decoded.data)).to.equal(true);
  });

  it('says why it cannot read a file', () => {
    expect(() => decodePng(Buffer.from('GIF89a'))).to.throw('not a PNG file');
  });
});
