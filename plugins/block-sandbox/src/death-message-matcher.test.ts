import { expect } from 'chai';
import { DeathMessageMatcher } from './death-message-matcher.js';
import { CURRENT_EN_US_DEATH_TEMPLATES } from './death-messages.js';

const fill = (template: string, dead: string, killer = 'Zombie', item = '[Diamond Sword]') =>
  template.replaceAll('%1$s', dead).replaceAll('%2$s', killer).replaceAll('%3$s', item);

describe('DeathMessageMatcher', () => {
  const steve = new DeathMessageMatcher('Steve');

  it('knows every death.attack.* and death.fell.* form of the game (99 templates)', () => {
    const keys = CURRENT_EN_US_DEATH_TEMPLATES.map(({ key }) => key);
    expect(keys).to.have.length(99);
    expect(keys.filter((key) => key.startsWith('en_us:death.fell.'))).to.have.length(12);
  });

  for (const { key, template } of CURRENT_EN_US_DEATH_TEMPLATES) {
    it(`${key}: the player dying is a death; the player as killer, or another's death, is not`, () => {
      expect(steve.match(fill(template, 'Steve')), fill(template, 'Steve')).to.not.equal(undefined);
      expect(steve.match(fill(template, 'Alex', 'Steve', 'Stick'))).to.equal(undefined);
      expect(steve.match(fill(template, 'Fluffy'))).to.equal(undefined);
    });
  }

  it('knows the "whilst fighting/escaping" wording of 1.19 and before for every "while" form', () => {
    const whileForms = CURRENT_EN_US_DEATH_TEMPLATES.filter(({ template }) => template.includes(' while '));
    expect(whileForms.length).to.be.greaterThan(25);
    for (const { template } of whileForms) {
      const message = fill(template.replace(' while ', ' whilst '), 'Steve');
      expect(steve.match(message), message).to.not.equal(undefined);
    }
  });

  it('knows older wordings: "burnt to a crisp", "killed trying to hurt", the water fall', () => {
    for (const message of [
      'Steve was burnt to a crisp whilst fighting Blaze',
      'Steve was killed trying to hurt Guardian',
      'Steve was killed by [Thorns Chestplate] trying to hurt Alex',
      'Steve fell out of the water',
    ])
      expect(steve.match(message), message).to.not.equal(undefined);
  });

  it('takes a killer or item of any length, with spaces and apostrophes', () => {
    expect(steve.match("Steve was slain by Whitecygnus's Iron Sword")).to.equal('en_us:death.attack.mob');
    expect(steve.match('Steve was shot by Skeleton Horseman from 27 blocks')).to.equal('en_us:death.attack.arrow');
  });

  it('needs the whole message: chat about dying, other players, or a longer name are not deaths', () => {
    for (const message of [
      '<Steve> I drowned lol',
      'Steve drowned lol',
      'Steve_2 drowned',
      'xSteve drowned',
      'Steve',
      '',
      'Steve has made the advancement [Monster Hunter]',
      'Teleported Steve to Alex',
      '[Alex: Killed Steve]',
      'Steve was slain by',
      'Steve joined the game',
    ])
      expect(steve.match(message), message).to.equal(undefined);
  });

  it('takes the name literally, even with characters that mean something in a pattern', () => {
    const odd = new DeathMessageMatcher('a.b+(c)');
    expect(odd.match('a.b+(c) drowned')).to.equal('en_us:death.attack.drown');
    expect(odd.match('aXbb(c) drowned')).to.equal(undefined);
  });

  it('knows the Simplified Chinese forms', () => {
    const gele = new DeathMessageMatcher('gele178');
    expect(gele.match('gele178被GLgele杀死了')).to.match(/^zh_cn:/);
    expect(gele.match('gele178掉出了这个世界')).to.equal('zh_cn:death.attack.outOfWorld');
    expect(gele.match('gele178在与GLgele战斗时被烤得酥脆')).to.equal('zh_cn:death.attack.onFire.player');
    expect(gele.match('GLgele被gele178杀死了')).to.equal(undefined);
    expect(gele.match('杀死了3个实体')).to.equal(undefined);
  });

  it('knows the server wordings seen on the Overcast Network', () => {
    expect(steve.match("Steve was knocked out of the world by Alex's Stone Sword")).to.equal('server:pgm.knocked_out_of_the_world');
    expect(steve.match('Steve was shot out of the world by Alex from 4 blocks')).to.equal('server:pgm.shot_out_of_the_world');
  });
});
