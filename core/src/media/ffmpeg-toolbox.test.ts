import 'reflect-metadata';
import { expect } from 'chai';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Environment } from '../platform/data-folders.js';
import { CommandError } from '../protocol/refusal.js';
import { Logger } from '../support/logger.js';
import {
  allCandidates,
  ffmpegCandidates,
  FfmpegNotFoundError,
  FfmpegToolbox,
  FfmpegToolboxConfig,
  findOnPath,
  locateFfmpegTools,
  locateTool,
} from './ffmpeg-toolbox.js';

describe('ffmpeg toolbox', () => {
  let folder: string;
  const environment = (variables: NodeJS.ProcessEnv): Environment => ({ platform: 'linux', home: folder, variables });
  const executable = async (name: string, mode = 0o755) => {
    const file = path.join(folder, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, mode);
    return file;
  };
  const noPackages = (specifier: string): unknown => {
    throw new Error(`Cannot find module '${specifier}'`);
  };

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-locator-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('takes FFMPEG_PATH and FFPROBE_PATH first when the files exist', async () => {
    const ffmpeg = await executable('custom/ffmpeg');
    const ffprobe = await executable('custom/ffprobe');
    const tools = locateFfmpegTools({ environment: environment({ FFMPEG_PATH: ffmpeg, FFPROBE_PATH: ffprobe, PATH: '' }) });
    expect(tools).to.deep.equal({ ffmpeg: { path: ffmpeg, source: 'environment' }, ffprobe: { path: ffprobe, source: 'environment' } });
  });

  it('falls through an environment path that does not exist to the packages of the workspace', () => {
    const tools = locateFfmpegTools({ environment: environment({ FFMPEG_PATH: path.join(folder, 'missing'), PATH: '' }) });
    // ffmpeg-static installs without its binary here (its download is blocked), so the installer package answers.
    expect(tools.ffmpeg.source).to.be.oneOf(['ffmpeg-static', 'installer-package']);
    expect(tools.ffprobe.source).to.equal('installer-package');
  });

  it('skips an ffmpeg-static path that does not exist and a binary that is not executable', async () => {
    const notExecutable = await executable('installer/ffmpeg', 0o644);
    const onPath = await executable('bin/ffmpeg');
    const loadPackage = (specifier: string): unknown => {
      if (specifier === 'ffmpeg-static') return path.join(folder, 'static', 'ffmpeg');
      if (specifier === '@ffmpeg-installer/ffmpeg') return { path: notExecutable };
      return noPackages(specifier);
    };
    const found = locateTool('ffmpeg', { environment: environment({ PATH: path.join(folder, 'bin') }), loadPackage });
    expect(found).to.deep.equal({ path: onPath, source: 'path' });
  });

  it('takes ffmpeg-static when its binary is there', async () => {
    const staticBinary = await executable('static/ffmpeg');
    const found = locateTool('ffmpeg', {
      environment: environment({}),
      loadPackage: (specifier) => (specifier === 'ffmpeg-static' ? staticBinary : noPackages(specifier)),
    });
    expect(found).to.deep.equal({ path: staticBinary, source: 'ffmpeg-static' });
  });

  it('says what it tried and what to do when nothing is found', () => {
    let caught: unknown;
    try {
      locateTool('ffprobe', {
        environment: environment({ FFPROBE_PATH: '/nowhere/ffprobe', PATH: path.join(folder, 'empty') }),
        loadPackage: noPackages,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(FfmpegNotFoundError);
    const message = (caught as Error).message;
    expect(message).to.include('ffprobe was not found');
    expect(message).to.include('FFPROBE_PATH');
    expect(message).to.include('/nowhere/ffprobe (file does not exist)');
    expect(message).to.include('@ffprobe-installer/ffprobe not usable');
    expect(message).to.include('no ffprobe in PATH');
  });

  it('lists one candidate per kind of source, in order, and what was tried in vain', async () => {
    const fromVariable = await executable('custom/ffmpeg');
    const bundled = await executable('static/ffmpeg');
    const onPath = await executable('bin/ffmpeg');
    const loadPackage = (specifier: string): unknown =>
      specifier === 'ffmpeg-static' ? bundled : { path: path.join(folder, 'installer/ffmpeg') };
    const { found, tried } = allCandidates('ffmpeg', {
      environment: environment({ FFMPEG_PATH: fromVariable, PATH: path.join(folder, 'bin') }),
      loadPackage,
    });
    expect(found).to.deep.equal([
      { path: fromVariable, source: 'environment' },
      { path: bundled, source: 'ffmpeg-static' },
      { path: onPath, source: 'path' },
    ]);
    expect(tried).to.deep.equal([]);
  });

  it('adds a downloaded build to the candidates, once per real file', async () => {
    const downloaded = await executable('download/ffmpeg');
    const options = { environment: environment({ FFMPEG_PATH: downloaded, PATH: '' }), loadPackage: noPackages };
    expect(ffmpegCandidates(options, path.join(folder, 'download'))).to.deep.equal([{ path: downloaded, source: 'environment' }]);
    const alone = { environment: environment({ PATH: '' }), loadPackage: noPackages };
    expect(ffmpegCandidates(alone, path.join(folder, 'download'))).to.deep.equal([{ path: downloaded, source: 'downloaded' }]);
  });

  it('refuses in the name of the operation while ffmpeg is not loaded yet', () => {
    const toolbox = new FfmpegToolbox(new FfmpegToolboxConfig(), new Logger([]));
    expect(() => toolbox.requireFfmpeg('Compressing the video')).to.throw(
      CommandError,
      /^Compressing the video needs ffmpeg, which is still being set up/,
    );
  });

  it('finds executables on PATH with PATHEXT on Windows', async () => {
    const file = await executable('win/ffmpeg.EXE');
    expect(
      findOnPath('ffmpeg', {
        platform: 'win32',
        home: folder,
        variables: { Path: `${path.join(folder, 'none')};${path.join(folder, 'win')}`, PATHEXT: '.COM;.EXE' },
      }),
    ).to.equal(file);
  });
});
