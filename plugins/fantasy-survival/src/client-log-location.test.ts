import { expect } from 'chai';
import path from 'node:path';
import { clientLogPath } from './client-log-location.js';

describe('clientLogPath', () => {
  it("is the game's Saved/Logs/RSDragonwilds.log in the local app-data folder", () => {
    expect(clientLogPath('/users/me/local')).to.equal(path.join('/users/me/local', 'RSDragonwilds', 'Saved', 'Logs', 'RSDragonwilds.log'));
  });
});
