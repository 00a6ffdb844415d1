// The verbs of War Thunder's HUD damage messages that matter for bookmarks, in every client language
// known: the reference implementation's lists (reference-implementation.md §8.11) plus what the real
// German and English samples show (`wurde zerstört`).

/** `<actor> (<vehicle>) <phrase> <target> (<vehicle>)`: the actor killed the target. */
export const KILL_PHRASES: readonly string[] = [
  // shot down (aircraft)
  'shot down',
  'abattu',
  'ha abbattuto',
  'abgeschossen',
  'ha derribado a',
  'сбил',
  'zestrzelił',
  'sestřelil',
  'düşürdü',
  '击落',
  '撃墜',
  'abateu',
  'збив',
  'oborio',
  'lelőtte',
  '격추',
  'збіў',
  'doborât',
  '擊落',
  'bắn hạ',
  // destroyed (ground vehicles, ships, AI units)
  'destroyed',
  'détruit',
  'ha distrutto',
  'zerstört',
  'ha destruido',
  'уничтожил',
  'zniszczył',
  'zničil',
  'imha etti',
  '击毁',
  '撃破',
  'destruiu',
  'знищив',
  'uništio',
  'megsemmisítette',
  '격파',
  'знішчыў',
  'distrus',
  '擊毀',
  'đã phá huỷ',
];

/**
 * `<player> (<vehicle>) <phrase>`: the player died with nobody credited — crashed, or (German sample, id 92)
 * `wurde zerstört` ("was destroyed"). Checked before the kill phrases, which `zerstört` is one of.
 */
export const OWN_DEATH_PHRASES: readonly string[] = [
  'wurde zerstört',
  'has crashed',
  "s'est écrasé",
  'si è schiantato',
  'ist abgestürzt',
  'se ha estrellado',
  'разбился',
  'rozbił się',
  'havaroval',
  'yere çakıldı',
  '坠毁',
  '墜落',
  'sofreu um acidente',
  'розбився',
  'se srušio',
  'összetörte',
  '추락했습니다',
  'разбіўся',
  's-a prăbușit',
  '墜毀',
  'bị rơi',
];
