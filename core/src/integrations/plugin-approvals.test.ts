import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { approvalsFile, PluginApprovals } from './plugin-approvals.js';

const HASH = 'a'.repeat(64);

describe('plugin approvals', () => {
  let data: string;
  beforeEach(async () => {
    data = await mkdtemp(path.join(tmpdir(), 'approvals-'));
  });
  afterEach(async () => {
    await rm(data, { recursive: true, force: true });
  });

  it('keeps an approval of one folder and hash across restarts, and forgets it on revoke', async () => {
    const approvals = new PluginApprovals(approvalsFile(data));
    expect(await approvals.load()).to.equal(undefined);
    await approvals.approve('userGame', '/p/user-game', HASH, new Date('2026-01-02T03:04:05Z'));
    const reloaded = new PluginApprovals(approvalsFile(data));
    await reloaded.load();
    expect(reloaded.isApproved('userGame', '/p/user-game', HASH)).to.equal(true);
    expect(reloaded.isApproved('userGame', '/p/user-game', 'b'.repeat(64))).to.equal(false);
    expect(reloaded.isApproved('userGame', '/elsewhere', HASH)).to.equal(false);
    expect(JSON.parse(await readFile(approvalsFile(data), 'utf8'))).to.deep.equal({
      version: 1,
      approvals: { userGame: { hash: HASH, path: '/p/user-game', approvedAt: '2026-01-02T03:04:05.000Z' } },
    });
    await reloaded.revoke('userGame');
    const afterRevoke = new PluginApprovals(approvalsFile(data));
    await afterRevoke.load();
    expect(afterRevoke.isApproved('userGame', '/p/user-game', HASH)).to.equal(false);
  });

  it('loses no approval when two processes approve at the same time', async function () {
    this.timeout(20_000);
    const module = new URL('./plugin-approvals.js', import.meta.url).href;
    const approveMany = (prefix: string) =>
      promisify(execFile)(process.execPath, [
        '--input-type=module',
        '-e',
        `const { PluginApprovals } = await import(${JSON.stringify(module)});
         const approvals = new PluginApprovals(${JSON.stringify(approvalsFile(data))});
         for (let i = 0; i < 20; i++) await approvals.approve('${prefix}' + i, '/p/${prefix}' + i, '${HASH}');`,
      ]);
    await Promise.all([approveMany('first'), approveMany('second')]);
    const approvals = new PluginApprovals(approvalsFile(data));
    await approvals.load();
    for (let i = 0; i < 20; i++) {
      expect(approvals.isApproved(`first${i}`, `/p/first${i}`, HASH), `first${i}`).to.equal(true);
      expect(approvals.isApproved(`second${i}`, `/p/second${i}`, HASH), `second${i}`).to.equal(true);
    }
  });

  it('approves nothing from a damaged file, says why, and refuses to write over it', async () => {
    await writeFile(approvalsFile(data), '{"version":1,"approvals":{"x":{"hash":"short"}}}');
    const approvals = new PluginApprovals(approvalsFile(data));
    expect(await approvals.load()).to.match(/damaged/);
    expect(approvals.isApproved('x', '/p', 'short')).to.equal(false);
    let failure: unknown;
    await approvals.approve('y', '/p', HASH).catch((error: unknown) => (failure = error));
    expect(String(failure)).to.match(/damaged.*repair or delete it/);
    expect(await readFile(approvalsFile(data), 'utf8')).to.equal('{"version":1,"approvals":{"x":{"hash":"short"}}}');
  });
});
