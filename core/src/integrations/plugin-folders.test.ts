import { expect } from 'chai';
import path from 'node:path';
import { defaultPluginFolders, installPluginFolders } from './plugin-folders.js';

const root = path.resolve('/', 'opt', 'app');

describe('plugin folders', () => {
  it("for an npm install scans the node_modules folder holding core and core's own, never the ones above", () => {
    const core = path.join(root, 'node_modules', '@keyframe', 'core');
    expect(installPluginFolders(core)).to.deep.equal([path.join(root, 'node_modules'), path.join(core, 'node_modules')]);
  });

  it('for a development checkout scans the workspace plugins/ and node_modules/ folders only', () => {
    expect(installPluginFolders(path.join(root, 'core'))).to.deep.equal([path.join(root, 'plugins'), path.join(root, 'node_modules')]);
  });

  it('puts KEYFRAME_PLUGIN_DIRS first, then the install, then the user plugins folder, each with its source', () => {
    const data = path.resolve('/', 'home', 'me', '.config', 'keyframe');
    const extra = path.resolve('/', 'src', 'my-plugin');
    const folders = defaultPluginFolders(data, { KEYFRAME_PLUGIN_DIRS: extra }, path.join(root, 'core'));
    expect(folders).to.deep.equal([
      { path: extra, source: 'environment' },
      { path: path.join(root, 'plugins'), source: 'install' },
      { path: path.join(root, 'node_modules'), source: 'install' },
      { path: path.join(data, 'plugins', 'node_modules'), source: 'user' },
    ]);
    expect(folders.some((folder) => folder.path === path.resolve('/', 'node_modules'))).to.equal(false);
  });
});
