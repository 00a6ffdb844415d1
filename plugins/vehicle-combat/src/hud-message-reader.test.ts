import { expect } from 'chai';
import { readHudMessage, namesPlayer } from './hud-message-reader.js';
import { KILL_PHRASES, OWN_DEATH_PHRASES } from './hud-phrases.js';
import { ENGLISH_MATCH, GERMAN_MATCH, GERMAN_PLAYER, readRecordedDamage, recordedData, recordedFiles } from './recorded-hudmsg.js';

/** Every message of a recorded answer that means something for `nickname`, by id. */
function outcomesFor(file: string, nickname: string): Record<number, string> {
  const outcomes: Record<number, string> = {};
  for (const { id, msg } of readRecordedDamage(file)) {
    const outcome = readHudMessage(msg, nickname);
    if (outcome !== undefined) outcomes[id] = outcome;
  }
  return outcomes;
}

describe('readHudMessage', () => {
  describe('on the real German ground battle', function () {
    beforeEach(function () {
      recordedData.skipIfAbsent(this);
    });

    it("finds exactly CassualTux's two kills (a BMP-2, a Su-25K shot down) and two deaths", () => {
      expect(outcomesFor(GERMAN_MATCH, GERMAN_PLAYER)).to.deep.equal({ 104: 'Kill', 105: 'Death', 161: 'Death', 181: 'Kill' });
    });

    it('gives nothing for the awards, fires and damage that name the player', () => {
      const mentions = readRecordedDamage(GERMAN_MATCH).filter(({ msg }) => msg.includes(GERMAN_PLAYER));
      expect(mentions).to.have.length(12);
      const silent = mentions.filter(({ msg }) => readHudMessage(msg, GERMAN_PLAYER) === undefined);
      expect(silent.map(({ id }) => id)).to.deep.equal([72, 126, 136, 142, 158, 160, 178, 205]);
    });

    it('reads "wurde zerstört" as the death of the one it names, with nobody credited', () => {
      expect(outcomesFor(GERMAN_MATCH, 'suedtirol5')).to.deep.equal({ 78: 'Death', 92: 'Death' });
    });

    it('tells players apart whose names only end alike', () => {
      expect(outcomesFor(GERMAN_MATCH, 'Sam')).to.deep.equal({});
      expect(outcomesFor(GERMAN_MATCH, 'LT')).to.deep.equal({});
      expect(outcomesFor(GERMAN_MATCH, 'Sam9841')).to.deep.equal({ 65: 'Kill', 70: 'Kill', 109: 'Kill', 115: 'Death' });
      expect(outcomesFor(GERMAN_MATCH, 'Extaz1kk LT')).to.deep.equal({ 77: 'Kill', 90: 'Death' });
    });
  });

  describe('on the real English air battle', function () {
    beforeEach(function () {
      recordedData.skipIfAbsent(this);
    });

    it('reads shot down, destroyed (AI units too) and crashes for the named player only', () => {
      expect(outcomesFor(ENGLISH_MATCH, 'Centaurea37')).to.deep.equal({ 102: 'Kill', 122: 'Kill' });
      expect(outcomesFor(ENGLISH_MATCH, 'FN2625')).to.deep.equal({ 50: 'Kill', 53: 'Kill', 83: 'Death' });
      expect(outcomesFor(ENGLISH_MATCH, 'melodic-caveat99')).to.deep.equal({ 22: 'Kill', 27: 'Kill', 60: 'Kill', 69: 'Death' });
      expect(outcomesFor(ENGLISH_MATCH, 'porthos')).to.deep.equal({});
      expect(outcomesFor(ENGLISH_MATCH, '_porthos')).to.deep.equal({ 35: 'Death' });
    });

    it('handles names with spaces and in other scripts', () => {
      expect(outcomesFor(ENGLISH_MATCH, '수도서울 절대사수')).to.deep.equal({ 49: 'Kill', 118: 'Kill', 129: 'Death', 132: 'Kill' });
      expect(outcomesFor(ENGLISH_MATCH, 'STRIDER 1')).to.deep.equal({ 108: 'Kill' });
      expect(outcomesFor(ENGLISH_MATCH, '物质与意识何者为本源')).to.deep.equal({ 4: 'Kill', 13: 'Death' });
    });

    it('does not count a missile shot out of the air as a kill', () => {
      expect(outcomesFor(ENGLISH_MATCH, 'Passpirin')).to.deep.equal({ 129: 'Kill' });
      expect(outcomesFor(ENGLISH_MATCH, 'XpertNoob69')).to.deep.equal({ 132: 'Death' });
    });
  });

  it('gives nothing in any recorded answer for a player who is not in it (spectating)', function () {
    recordedData.skipIfAbsent(this);
    for (const file of recordedFiles()) expect(outcomesFor(file, 'SomeoneElse'), file).to.deep.equal({});
  });

  it('reads every kill phrase of the reference lists both ways', () => {
    for (const phrase of KILL_PHRASES) {
      expect(readHudMessage(`=TAG= Me (Vehicle A) ${phrase} ⋇Other (Vehicle B)`, 'Me'), phrase).to.equal('Kill');
      expect(readHudMessage(`Other (Vehicle B) ${phrase} [TAG] Me (Vehicle A)`, 'Me'), phrase).to.equal('Death');
      expect(readHudMessage(`Other (Vehicle B) ${phrase} Third (Vehicle C)`, 'Me'), phrase).to.equal(undefined);
    }
  });

  it('reads every crash phrase as a death of the one who crashed only', () => {
    for (const phrase of OWN_DEATH_PHRASES) {
      expect(readHudMessage(`-TAG- Me (Vehicle) ${phrase}.`, 'Me'), phrase).to.equal('Death');
      expect(readHudMessage(`Other (Vehicle) ${phrase}.`, 'Me'), phrase).to.equal(undefined);
    }
  });

  it('ignores phrases inside vehicle names and award titles, and words that only contain them', () => {
    expect(readHudMessage('Me (Vehicle) hat "Der Zerstörer: zerstört x3" erreicht', 'Me')).to.equal(undefined);
    expect(readHudMessage('Me (Tank "shot down" edition) set afire Other (Vehicle)', 'Me')).to.equal(undefined);
    expect(readHudMessage('Me (Vehicle) undestroyedX Other (Vehicle)', 'Me')).to.equal(undefined);
    expect(readHudMessage('Me has disconnected from the game.', 'Me')).to.equal(undefined);
    expect(readHudMessage('Metd! kd?NET_PLAYER_DISCONNECT_FROM_GAME', 'Me')).to.equal(undefined);
  });

  it('never throws on odd text', () => {
    for (const text of ['', ' ', '(', ')))', '"', 'destroyed', 'shot down Me', 'Me shot down', '((Me) destroyed (', '\u0000\uFFFF']) {
      expect(() => readHudMessage(text, 'Me'), text).not.to.throw();
    }
    expect(readHudMessage('shot down Me (Vehicle)', 'Me')).to.equal('Death');
  });
});

describe('namesPlayer', () => {
  it('accepts a squadron tag and a platform mark before the nickname, nothing else', () => {
    expect(namesPlayer('CassualTux', 'CassualTux')).to.equal(true);
    expect(namesPlayer('-GFF7- CassualTux', 'CassualTux')).to.equal(true);
    expect(namesPlayer('=Amch= ⋇Rehik5515', 'Rehik5515')).to.equal(true);
    expect(namesPlayer('┾GYM1┿ Soulrider189', 'Soulrider189')).to.equal(true);
    expect(namesPlayer('xCassualTux', 'CassualTux')).to.equal(false);
    expect(namesPlayer('cassualtux', 'CassualTux')).to.equal(false);
    expect(namesPlayer('CassualTux2', 'CassualTux')).to.equal(false);
  });

  it('matches a console nickname without its platform suffix', () => {
    expect(namesPlayer('⋇Rehik5515', 'Rehik5515@psn')).to.equal(true);
    expect(namesPlayer('Rehik5515', 'Rehik5515@live')).to.equal(true);
    expect(namesPlayer('anything', '@psn')).to.equal(false);
  });
});
