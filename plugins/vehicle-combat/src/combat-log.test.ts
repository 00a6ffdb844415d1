import { expect } from 'chai';
import { encodeClog, loggedInSession } from './clog-fixtures.js';
import { decodeCombatLog, nicknameInCombatLog } from './combat-log.js';

describe('decodeCombatLog', () => {
  it("undoes the game's encoding, past the length of the key and in any script", () => {
    const text = `${'x'.repeat(300)}\n菊花反坦克导弹车 ⋇Rehik5515 Яидузатобой85\n`;
    expect(decodeCombatLog(encodeClog(text))).to.equal(text);
  });

  it('does not leave the encoded text readable', () => {
    expect(encodeClog('successfully passed yuplay authorization').toString('latin1')).not.to.include('yuplay');
  });
});

describe('nicknameInCombatLog', () => {
  it('reads the nickname from the authorization line', () => {
    expect(nicknameInCombatLog(loggedInSession('CassualTux'))).to.equal('CassualTux');
    expect(nicknameInCombatLog('5.5 [D]  $07 Rehik5515@psn[42] successfully passed yuplay authorization, use jwt token')).to.equal(
      'Rehik5515@psn',
    );
  });

  it('falls back to a "nick" field', () => {
    expect(nicknameInCombatLog('9.1 [D]  $07 profile: {"uid": 42, "nick" : "Tanker_1", "clan": "GFF7"}')).to.equal('Tanker_1');
  });

  it('takes the last login when the player changed accounts', () => {
    expect(nicknameInCombatLog(loggedInSession('First') + loggedInSession('Second'))).to.equal('Second');
  });

  it('finds nothing in a log without a login, or in garbage', () => {
    expect(nicknameInCombatLog('0.012 [I]  $07 start logging\n')).to.equal(undefined);
    expect(nicknameInCombatLog(decodeCombatLog(Uint8Array.from([0, 1, 2, 255, 254])))).to.equal(undefined);
    expect(nicknameInCombatLog('"nick": ""')).to.equal(undefined);
  });
});
