// The death messages Minecraft Java Edition prints in chat, as the game's language files spell them:
// `%1$s` is the one who died, `%2$s` the killer, `%3$s` the item. Facts about the game, by language.

/** A death message template and the language-file key it comes from. */
export interface DeathTemplate {
  readonly key: string;
  readonly template: string;
}

/** en_us as of 1.20+ (`death.attack.*`, `death.fell.*`). */
const EN_US: Readonly<Record<string, string>> = {
  'death.attack.anvil': '%1$s was squashed by a falling anvil',
  'death.attack.anvil.player': '%1$s was squashed by a falling anvil while fighting %2$s',
  'death.attack.arrow': '%1$s was shot by %2$s',
  'death.attack.arrow.item': '%1$s was shot by %2$s using %3$s',
  'death.attack.badRespawnPoint.message': '%1$s was killed by %2$s',
  'death.attack.cactus': '%1$s was pricked to death',
  'death.attack.cactus.player': '%1$s walked into a cactus while trying to escape %2$s',
  'death.attack.cramming': '%1$s was squished too much',
  'death.attack.cramming.player': '%1$s was squashed by %2$s',
  'death.attack.dragonBreath': "%1$s was roasted in dragon's breath",
  'death.attack.dragonBreath.player': "%1$s was roasted in dragon's breath by %2$s",
  'death.attack.drown': '%1$s drowned',
  'death.attack.drown.player': '%1$s drowned while trying to escape %2$s',
  'death.attack.dryout': '%1$s died from dehydration',
  'death.attack.dryout.player': '%1$s died from dehydration while trying to escape %2$s',
  'death.attack.even_more_magic': '%1$s was killed by even more magic',
  'death.attack.explosion': '%1$s blew up',
  'death.attack.explosion.player': '%1$s was blown up by %2$s',
  'death.attack.explosion.player.item': '%1$s was blown up by %2$s using %3$s',
  'death.attack.fall': '%1$s hit the ground too hard',
  'death.attack.fall.player': '%1$s hit the ground too hard while trying to escape %2$s',
  'death.attack.fallingBlock': '%1$s was squashed by a falling block',
  'death.attack.fallingBlock.player': '%1$s was squashed by a falling block while fighting %2$s',
  'death.attack.fallingStalactite': '%1$s was skewered by a falling stalactite',
  'death.attack.fallingStalactite.player': '%1$s was skewered by a falling stalactite while fighting %2$s',
  'death.attack.fireball': '%1$s was fireballed by %2$s',
  'death.attack.fireball.item': '%1$s was fireballed by %2$s using %3$s',
  'death.attack.fireworks': '%1$s went off with a bang',
  'death.attack.fireworks.item': '%1$s went off with a bang due to a firework fired from %3$s by %2$s',
  'death.attack.fireworks.player': '%1$s went off with a bang while fighting %2$s',
  'death.attack.flyIntoWall': '%1$s experienced kinetic energy',
  'death.attack.flyIntoWall.player': '%1$s experienced kinetic energy while trying to escape %2$s',
  'death.attack.freeze': '%1$s froze to death',
  'death.attack.freeze.player': '%1$s was frozen to death by %2$s',
  'death.attack.generic': '%1$s died',
  'death.attack.generic.player': '%1$s died because of %2$s',
  'death.attack.genericKill': '%1$s was killed',
  'death.attack.genericKill.player': '%1$s was killed while fighting %2$s',
  'death.attack.hotFloor': '%1$s discovered the floor was lava',
  'death.attack.hotFloor.player': '%1$s walked into the danger zone due to %2$s',
  'death.attack.inFire': '%1$s went up in flames',
  'death.attack.inFire.player': '%1$s walked into fire while fighting %2$s',
  'death.attack.inWall': '%1$s suffocated in a wall',
  'death.attack.inWall.player': '%1$s suffocated in a wall while fighting %2$s',
  'death.attack.indirectMagic': '%1$s was killed by %2$s using magic',
  'death.attack.indirectMagic.item': '%1$s was killed by %2$s using %3$s',
  'death.attack.lava': '%1$s tried to swim in lava',
  'death.attack.lava.player': '%1$s tried to swim in lava to escape %2$s',
  'death.attack.lightningBolt': '%1$s was struck by lightning',
  'death.attack.lightningBolt.player': '%1$s was struck by lightning while fighting %2$s',
  'death.attack.mace_smash': '%1$s was smashed by %2$s',
  'death.attack.mace_smash.item': '%1$s was smashed by %2$s with %3$s',
  'death.attack.magic': '%1$s was killed by magic',
  'death.attack.magic.player': '%1$s was killed by magic while trying to escape %2$s',
  'death.attack.mob': '%1$s was slain by %2$s',
  'death.attack.mob.item': '%1$s was slain by %2$s using %3$s',
  'death.attack.onFire': '%1$s burned to death',
  'death.attack.onFire.item': '%1$s was burned to a crisp while fighting %2$s wielding %3$s',
  'death.attack.onFire.player': '%1$s was burned to a crisp while fighting %2$s',
  'death.attack.outOfWorld': '%1$s fell out of the world',
  'death.attack.outOfWorld.player': "%1$s didn't want to live in the same world as %2$s",
  'death.attack.outsideBorder': '%1$s left the confines of this world',
  'death.attack.outsideBorder.player': '%1$s left the confines of this world while fighting %2$s',
  'death.attack.player': '%1$s was slain by %2$s',
  'death.attack.player.item': '%1$s was slain by %2$s using %3$s',
  'death.attack.sonic_boom': '%1$s was obliterated by a sonically-charged shriek',
  'death.attack.sonic_boom.item': '%1$s was obliterated by a sonically-charged shriek while trying to escape %2$s wielding %3$s',
  'death.attack.sonic_boom.player': '%1$s was obliterated by a sonically-charged shriek while trying to escape %2$s',
  'death.attack.stalagmite': '%1$s was impaled on a stalagmite',
  'death.attack.stalagmite.player': '%1$s was impaled on a stalagmite while fighting %2$s',
  'death.attack.starve': '%1$s starved to death',
  'death.attack.starve.player': '%1$s starved to death while fighting %2$s',
  'death.attack.sting': '%1$s was stung to death',
  'death.attack.sting.item': '%1$s was stung to death by %2$s using %3$s',
  'death.attack.sting.player': '%1$s was stung to death by %2$s',
  'death.attack.sweetBerryBush': '%1$s was poked to death by a sweet berry bush',
  'death.attack.sweetBerryBush.player': '%1$s was poked to death by a sweet berry bush while trying to escape %2$s',
  'death.attack.thorns': '%1$s was killed while trying to hurt %2$s',
  'death.attack.thorns.item': '%1$s was killed by %3$s while trying to hurt %2$s',
  'death.attack.thrown': '%1$s was pummeled by %2$s',
  'death.attack.thrown.item': '%1$s was pummeled by %2$s using %3$s',
  'death.attack.trident': '%1$s was impaled by %2$s',
  'death.attack.trident.item': '%1$s was impaled by %2$s with %3$s',
  'death.attack.wither': '%1$s withered away',
  'death.attack.wither.player': '%1$s withered away while fighting %2$s',
  'death.attack.witherSkull': '%1$s was shot by a skull from %2$s',
  'death.attack.witherSkull.item': '%1$s was shot by a skull from %2$s using %3$s',
  'death.fell.accident.generic': '%1$s fell from a high place',
  'death.fell.accident.ladder': '%1$s fell off a ladder',
  'death.fell.accident.other_climbable': '%1$s fell while climbing',
  'death.fell.accident.scaffolding': '%1$s fell off scaffolding',
  'death.fell.accident.twisting_vines': '%1$s fell off some twisting vines',
  'death.fell.accident.vines': '%1$s fell off some vines',
  'death.fell.accident.weeping_vines': '%1$s fell off some weeping vines',
  'death.fell.assist': '%1$s was doomed to fall by %2$s',
  'death.fell.assist.item': '%1$s was doomed to fall by %2$s using %3$s',
  'death.fell.finish': '%1$s fell too far and was finished by %2$s',
  'death.fell.finish.item': '%1$s fell too far and was finished by %2$s using %3$s',
  'death.fell.killer': '%1$s was doomed to fall',
};

/**
 * en_us wording of older releases where it differs beyond "whilst" (which `whilstVariants` adds):
 * 1.19 and before say "burnt", 1.8–1.12 "killed trying to hurt" and had the water fall.
 */
const EN_US_OLDER: Readonly<Record<string, string>> = {
  'death.attack.onFire.item': '%1$s was burnt to a crisp whilst fighting %2$s wielding %3$s',
  'death.attack.onFire.player': '%1$s was burnt to a crisp whilst fighting %2$s',
  'death.attack.thorns': '%1$s was killed trying to hurt %2$s',
  'death.attack.thorns.item': '%1$s was killed by %3$s trying to hurt %2$s',
  'death.fell.accident.water': '%1$s fell out of the water',
};

/**
 * Deaths worded by a server plugin instead of the game, as seen in the Overcast Network (PGM) log
 * of the samples; the plugin's other wordings that end like a vanilla one ("was slain by X's Iron
 * Sword") are already covered by the `%2$s` wildcard.
 */
const SERVER_WORDINGS: Readonly<Record<string, string>> = {
  'pgm.knocked_out_of_the_world': '%1$s was knocked out of the world by %2$s',
  'pgm.shot_out_of_the_world': '%1$s was shot out of the world by %2$s',
};

/** zh_cn (Simplified Chinese), 1.17–1.19 wording. */
const ZH_CN: Readonly<Record<string, string>> = {
  'death.attack.anvil': '%1$s被坠落的铁砧压扁了',
  'death.attack.anvil.player': '%1$s在与%2$s战斗时被坠落的铁砧压扁了',
  'death.attack.arrow': '%1$s被%2$s射杀',
  'death.attack.arrow.item': '%1$s被%2$s用%3$s射杀',
  'death.attack.badRespawnPoint.message': '%1$s被%2$s杀死了',
  'death.attack.cactus': '%1$s被戳死了',
  'death.attack.cactus.player': '%1$s在试图逃离%2$s时撞上了仙人掌',
  'death.attack.cramming': '%1$s因被过度挤压而死',
  'death.attack.cramming.player': '%1$s被%2$s挤扁了',
  'death.attack.dragonBreath': '%1$s被龙息烤熟了',
  'death.attack.dragonBreath.player': '%1$s被%2$s的龙息烤熟了',
  'death.attack.drown': '%1$s淹死了',
  'death.attack.drown.player': '%1$s在试图逃离%2$s时淹死了',
  'death.attack.dryout': '%1$s因脱水而死',
  'death.attack.dryout.player': '%1$s在试图逃离%2$s时因脱水而死',
  'death.attack.even_more_magic': '%1$s被不为人知的魔法杀死了',
  'death.attack.explosion': '%1$s爆炸了',
  'death.attack.explosion.player': '%1$s被%2$s炸死了',
  'death.attack.explosion.player.item': '%1$s被%2$s用%3$s炸死了',
  'death.attack.fall': '%1$s落地过猛',
  'death.attack.fall.player': '%1$s在试图逃离%2$s时落地过猛',
  'death.attack.fallingBlock': '%1$s被下落的方块压扁了',
  'death.attack.fallingBlock.player': '%1$s在与%2$s战斗时被下落的方块压扁了',
  'death.attack.fallingStalactite': '%1$s被坠落的钟乳石刺穿了',
  'death.attack.fallingStalactite.player': '%1$s在与%2$s战斗时被坠落的钟乳石刺穿了',
  'death.attack.fireball': '%1$s被%2$s用火球烧死了',
  'death.attack.fireball.item': '%1$s被%2$s用%3$s发射的火球烧死了',
  'death.attack.fireworks': '%1$s随着一声巨响消失了',
  'death.attack.fireworks.item': '%1$s随着%2$s用%3$s发射的烟花发出的巨响消失了',
  'death.attack.fireworks.player': '%1$s在与%2$s战斗时随着一声巨响中消失了',
  'death.attack.flyIntoWall': '%1$s感受到了动能',
  'death.attack.flyIntoWall.player': '%1$s在试图逃离%2$s时感受到了动能',
  'death.attack.freeze': '%1$s被冻死了',
  'death.attack.freeze.player': '%1$s被%2$s冻死了',
  'death.attack.generic': '%1$s死了',
  'death.attack.generic.player': '%1$s死于%2$s',
  'death.attack.hotFloor': '%1$s发现了地板是熔岩做的',
  'death.attack.hotFloor.player': '%1$s因%2$s而步入危险之地',
  'death.attack.inFire': '%1$s浴火焚身',
  'death.attack.inFire.player': '%1$s在与%2$s战斗时踏入了火中',
  'death.attack.inWall': '%1$s在墙里窒息而亡',
  'death.attack.inWall.player': '%1$s在与%2$s战斗时在墙里窒息而亡',
  'death.attack.indirectMagic': '%1$s被%2$s使用的魔法杀死了',
  'death.attack.indirectMagic.item': '%1$s被%2$s用%3$s杀死了',
  'death.attack.lava': '%1$s试图在熔岩里游泳',
  'death.attack.lava.player': '%1$s在逃离%2$s时试图在熔岩里游泳',
  'death.attack.lightningBolt': '%1$s被闪电击中',
  'death.attack.lightningBolt.player': '%1$s在与%2$s战斗时被闪电击中',
  'death.attack.magic': '%1$s被魔法杀死了',
  'death.attack.magic.player': '%1$s在试图逃离%2$s时被魔法杀死了',
  'death.attack.mob': '%1$s被%2$s杀死了',
  'death.attack.mob.item': '%1$s被%2$s用%3$s杀死了',
  'death.attack.onFire': '%1$s被烧死了',
  'death.attack.onFire.player': '%1$s在与%2$s战斗时被烤得酥脆',
  'death.attack.outOfWorld': '%1$s掉出了这个世界',
  'death.attack.outOfWorld.player': '%1$s与%2$s不共戴天',
  'death.attack.player': '%1$s被%2$s杀死了',
  'death.attack.player.item': '%1$s被%2$s用%3$s杀死了',
  'death.attack.stalagmite': '%1$s被石笋刺穿了',
  'death.attack.stalagmite.player': '%1$s在与%2$s战斗时被石笋刺穿了',
  'death.attack.starve': '%1$s饿死了',
  'death.attack.starve.player': '%1$s在与%2$s战斗时饿死了',
  'death.attack.sting': '%1$s被蛰死了',
  'death.attack.sting.player': '%1$s被%2$s蛰死了',
  'death.attack.sweetBerryBush': '%1$s被甜浆果丛刺死了',
  'death.attack.sweetBerryBush.player': '%1$s在试图逃离%2$s时被甜浆果丛刺死了',
  'death.attack.thorns': '%1$s在试图伤害%2$s时被杀',
  'death.attack.thorns.item': '%1$s在试图伤害%2$s时被%3$s杀死',
  'death.attack.thrown': '%1$s被%2$s给砸死了',
  'death.attack.thrown.item': '%1$s被%2$s用%3$s给砸死了',
  'death.attack.trident': '%1$s被%2$s刺穿了',
  'death.attack.trident.item': '%1$s被%2$s用%3$s刺穿了',
  'death.attack.wither': '%1$s凋零了',
  'death.attack.wither.player': '%1$s在与%2$s战斗时凋零了',
  'death.attack.witherSkull': '%1$s被%2$s发射的头颅射杀',
  'death.fell.accident.generic': '%1$s从高处摔了下来',
  'death.fell.accident.ladder': '%1$s从梯子上摔了下来',
  'death.fell.accident.other_climbable': '%1$s在攀爬时摔了下来',
  'death.fell.accident.scaffolding': '%1$s从脚手架上摔了下来',
  'death.fell.accident.twisting_vines': '%1$s从缠怨藤上摔了下来',
  'death.fell.accident.vines': '%1$s从藤蔓上摔了下来',
  'death.fell.accident.weeping_vines': '%1$s从垂泪藤上摔了下来',
  'death.fell.assist': '%1$s因为%2$s注定要摔死',
  'death.fell.assist.item': '%1$s因为%2$s使用了%3$s注定要摔死',
  'death.fell.finish': '%1$s摔伤得太重并被%2$s完结了生命',
  'death.fell.finish.item': '%1$s摔伤得太重并被%2$s用%3$s完结了生命',
  'death.fell.killer': '%1$s注定要摔死',
};

/** Until 1.19 the "fighting/escaping" forms said "whilst" where they now say "while". */
function whilstVariants(messages: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(messages)
      .filter(([, template]) => template.includes(' while '))
      .map(([key, template]) => [key, template.replace(' while ', ' whilst ')]),
  );
}

const templatesOf = (language: string, messages: Readonly<Record<string, string>>): DeathTemplate[] =>
  Object.entries(messages).map(([key, template]) => ({ key: `${language}:${key}`, template }));

/** The en_us templates of the current release: the forms every test must cover. */
export const CURRENT_EN_US_DEATH_TEMPLATES: readonly DeathTemplate[] = templatesOf('en_us', EN_US);

/** Every template a death line is compared with, in every wording and language supported. */
export const DEATH_TEMPLATES: readonly DeathTemplate[] = [
  ...CURRENT_EN_US_DEATH_TEMPLATES,
  ...templatesOf('en_us', whilstVariants(EN_US)),
  ...templatesOf('en_us', EN_US_OLDER),
  ...templatesOf('server', SERVER_WORDINGS),
  ...templatesOf('zh_cn', ZH_CN),
];
