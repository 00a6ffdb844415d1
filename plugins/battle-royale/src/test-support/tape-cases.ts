// Test support: the situations the tapes under test/data show, with the bookmarks each must give
// (worked out by hand: match start + event offset − recording start).
import { kill, knock, type GeneratedEvent, type GeneratedReplay } from './replay-generator.js';
import type { TapeCase } from './tape-writer.js';

const T0 = Date.parse('2026-11-24T19:00:00.000Z');
const RECORDED_AT = new Date(T0).toISOString();
const seconds = (value: number) => value * 1000;

function replay(folder: string, matchStartSeconds: number, events: GeneratedEvent[]): GeneratedReplay {
  return {
    folder: `match.bro.official.pc-2018-31.steam.squad-fpp.eu.2026.11.24.${folder}`,
    matchStartedAt: new Date(T0 + seconds(matchStartSeconds)),
    player: '[KFR]Hunter',
    events,
  };
}

/** Cuts a file in the middle of its JSON, as a crash while saving would. */
const truncated = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2));

export const TAPE_CASES: TapeCase[] = [
  {
    name: 'match-in-recording',
    description:
      'A whole match inside one recording; the replay is saved 40 s after the player is knocked and finished. ' +
      'A knock is the Kill (finishing that player adds nothing), an instant kill is a Kill, being knocked is the Death ' +
      "(being finished adds nothing); clan tags and case do not matter; a teammate's knocks and kills give nothing.",
    recordedAt: RECORDED_AT,
    replays: [
      {
        replay: replay('19.01.00.a1', 60, [
          knock(seconds(120), '[kfr]hunter', 'Victim1'),
          kill(seconds(135), 'Hunter', '[ZZ]Victim1', true),
          kill(seconds(300), 'Hunter ', 'Victim2', false),
          knock(seconds(400), '[KFR]Mate', 'Enemy'),
          kill(seconds(410), '[KFR]Mate', 'Enemy', true),
          knock(seconds(900), 'Enemy3', '[KFR]Hunter'),
          kill(seconds(930), 'Enemy3', '[KFR] Hunter', true),
        ]),
        savedAtMs: seconds(1000),
      },
    ],
    expected: [
      { type: 'Kill', time: 180 },
      { type: 'Kill', time: 360 },
      { type: 'Death', time: 960 },
    ],
  },
  {
    name: 'match-started-before-recording',
    description: "The recording starts 90 s into a match: the kill before it is dropped; the replay's info file comes before its events.",
    recordedAt: RECORDED_AT,
    replays: [
      {
        replay: replay('18.58.30.b2', -90, [
          kill(seconds(30), 'Hunter', 'Early', false),
          knock(seconds(150), 'Hunter', 'Late'),
          knock(seconds(200), 'Sniper', 'Hunter'),
        ]),
        savedAtMs: seconds(240),
        infoFirst: true,
      },
    ],
    expected: [
      { type: 'Kill', time: 60 },
      { type: 'Death', time: 110 },
    ],
  },
  {
    name: 'replay-saved-in-a-later-recording',
    description:
      'Recording 0 stops in the middle of a match and recording 1 starts later; the replay is saved during recording 1. ' +
      'The kill during recording 0 lands in it (finished by then), the death between the recordings is dropped, the kill during recording 1 lands there.',
    recordedAt: RECORDED_AT,
    recordings: [
      { startMs: 0, stopMs: seconds(600) },
      { startMs: seconds(700), stopMs: seconds(800) },
    ],
    replays: [
      {
        replay: replay('19.00.30.c3', 30, [
          kill(seconds(100), 'Hunter', 'First', false),
          knock(seconds(650), 'Camper', 'Hunter'),
          kill(seconds(700), 'Hunter', 'Camper', false),
        ]),
        savedAtMs: seconds(760),
      },
    ],
    expected: [
      { type: 'Kill', time: 130, recording: 0 },
      { type: 'Kill', time: 30, recording: 1 },
    ],
  },
  {
    name: 'corrupt-replays',
    description:
      'A replay whose info file is cut short is skipped whole; in the next replay an event file cut short and one with bad base64 ' +
      'are skipped, the readable knock still counts.',
    recordedAt: RECORDED_AT,
    replays: [
      {
        replay: replay('19.01.00.d4', 60, [knock(seconds(100), 'Hunter', 'Lost')]),
        savedAtMs: seconds(300),
        damage: { 'PUBG.replayinfo': truncated },
      },
      {
        replay: replay('19.06.00.e5', 360, [
          kill(seconds(30), 'Hunter', 'Broken', false),
          knock(seconds(60), 'Hunter', 'Garbled'),
          knock(seconds(90), 'Hunter', 'Counted'),
        ]),
        savedAtMs: seconds(600),
        damage: {
          'events/kill0': truncated,
          'events/DBNO0': (bytes) => Buffer.from(bytes.toString('latin1').replace(/"data":"[^"]*"/, '"data":"not base64!"'), 'latin1'),
        },
      },
    ],
    expected: [{ type: 'Kill', time: 450 }],
  },
];
