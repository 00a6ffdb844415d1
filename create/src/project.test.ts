import { expect } from 'chai';
import path from 'node:path';
import { resolveProject, UsageError, type IntegrationRequest } from './project.js';

const CWD = path.resolve('/work');
const resolve = (request: IntegrationRequest) => resolveProject(request, CWD);

describe('resolveProject', () => {
  it('derives every name from the folder: key, display name, package name, class, a placeholder port', () => {
    const project = resolve({ folder: 'games/racing-game' });
    expect(project).to.deep.include({
      folder: path.join(CWD, 'games', 'racing-game'),
      feed: 'httpPush',
      key: 'racingGame',
      displayName: 'Racing game',
      packageName: 'keyframe-plugin-racing-game',
      slug: 'racing-game',
      className: 'RacingGameIntegration',
    });
    expect(project.port).to.be.within(47000, 47999);
    expect(resolve({ folder: 'elsewhere/racing-game' }).port, 'stable per key').to.equal(project.port);
  });

  it('reads folder names people write: capitals, underscores, spaces, a keyframe-plugin- prefix', () => {
    expect(resolve({ folder: 'Racing_Game 2' })).to.deep.include({ key: 'racingGame2', displayName: 'Racing game 2' });
    expect(resolve({ folder: 'keyframe-plugin-racing' })).to.deep.include({ key: 'racing', packageName: 'keyframe-plugin-racing' });
  });

  it('takes what was given over the defaults', () => {
    const project = resolve({
      folder: 'x',
      feed: 'poll',
      key: 'someRacer',
      displayName: 'Some Racer 2',
      packageName: '@me/racer',
      port: '8111',
    });
    expect(project).to.deep.include({ feed: 'poll', key: 'someRacer', displayName: 'Some Racer 2', packageName: '@me/racer', port: 8111 });
    expect(project.slug).to.equal('some-racer');
  });

  it('gives no port to kinds that have none, and refuses --port for them', () => {
    for (const feed of ['tail', 'watchFolder', 'screenText']) {
      expect(resolve({ folder: 'racing-game', feed }).port, feed).to.equal(undefined);
      expect(() => resolve({ folder: 'racing-game', feed, port: '8111' }), feed).to.throw(
        UsageError,
        `--port does not apply to a ${feed} feed: only to httpPush, poll, tcp, webSocket, udp`,
      );
    }
  });

  it('refuses an unknown feed kind, listing the allowed ones', () => {
    expect(() => resolve({ folder: 'racing-game', feed: 'serial' })).to.throw(
      UsageError,
      'unknown feed kind "serial": use one of httpPush, poll, tail, watchFolder, screenText, tcp, webSocket, udp',
    );
  });

  it('refuses a bad key, and asks for one when the folder name makes none', () => {
    for (const key of ['Racing', 'racing-game', '9lives', 'racing_game', '']) {
      expect(() => resolve({ folder: 'racing-game', key }), key).to.throw(UsageError, `key "${key}" is not valid`);
    }
    expect(() => resolve({ folder: '2048' })).to.throw(UsageError, 'cannot make a key of the folder name "2048": give one with --key');
  });

  it('refuses a package name npm would refuse', () => {
    for (const packageName of ['Racing', 'racing game', '.racing', '_racing', '@/racing', `a${'b'.repeat(214)}`]) {
      expect(() => resolve({ folder: 'racing-game', packageName }), packageName).to.throw(UsageError, `package name "${packageName}"`);
    }
  });

  it('refuses a port that is no port', () => {
    for (const port of ['0', '65536', 'http', '-1', '80.5']) {
      expect(() => resolve({ folder: 'racing-game', port }), port).to.throw(UsageError, `--port "${port}" is not a port number`);
    }
  });

  it('refuses a display name that would break the generated code', () => {
    for (const displayName of ['Racer "2"', "Racer's", 'C:\\Racer', 'Racer\n2', '  ']) {
      expect(() => resolve({ folder: 'racing-game', displayName }), displayName).to.throw(UsageError);
    }
  });
});
