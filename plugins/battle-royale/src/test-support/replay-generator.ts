// Test support: replay folders in the layout PUBG saves them (reference §8.5; no public sample exists):
// `PUBG.replayinfo` and one file per knock or kill under `events/`, each JSON wrapped in binary
// framing, event details as base64 JSON; plus the `data/` and `demo/` files the integration must ignore.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPLAY_FILE_PATTERN, replayFilePath } from '../replay-layout.js';

export interface GeneratedEvent {
  kind: 'knock' | 'kill';
  /** Milliseconds since the match started. */
  offsetMs: number;
  instigator: string;
  victim: string;
  /** Kills only: the victim had been knocked before. */
  victimWasKnocked?: boolean;
}

export const knock = (offsetMs: number, instigator: string, victim: string): GeneratedEvent => ({
  kind: 'knock',
  offsetMs,
  instigator,
  victim,
});
export const kill = (offsetMs: number, instigator: string, victim: string, victimWasKnocked: boolean): GeneratedEvent => ({
  kind: 'kill',
  offsetMs,
  instigator,
  victim,
  victimWasKnocked,
});

export interface GeneratedReplay {
  /** The folder name, e.g. `match.bro.official.pc-2018-30.steam.squad-fpp.eu.2026.11.24.01.00.00.<id>`. */
  folder: string;
  matchStartedAt: Date;
  /** The recording player, as the game writes it (with a clan tag, say). */
  player: string;
  events: GeneratedEvent[];
}

export interface GeneratedFile {
  /** Relative to the Demos folder, forward slashes. */
  path: string;
  bytes: Buffer;
}

/** An Unreal-style frame: magic, version, length-prefixed NUL-terminated UTF-8, trailer; the bytes around the JSON are not text. */
export function framed(json: unknown): Buffer {
  const text = Buffer.from(`${JSON.stringify(json)}\0`, 'utf8');
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x1ca2e27f, 0);
  header.writeUInt32LE(6, 4);
  header.writeInt32LE(text.length, 8);
  return Buffer.concat([header, text, Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00])]);
}

export function replayInfoBytes(replay: GeneratedReplay): Buffer {
  const lastEvent = Math.max(0, ...replay.events.map((event) => event.offsetMs));
  return framed({
    LengthInMS: lastEvent + 60_000,
    NetworkVersion: 6,
    Changelist: 10_429_173,
    FriendlyName: 'PUBG replay',
    Timestamp: replay.matchStartedAt.getTime(),
    SizeInBytes: 48_231_904,
    bIsLive: false,
    bIncomplete: false,
    bIsServerRecording: false,
    bShouldKeep: false,
    Mode: 'squad-fpp',
    RecordUserId: 'account.5f3c0e1b9d2a4c7e8f6a1b2c3d4e5f60',
    RecordUserNickName: replay.player,
    MapName: 'Baltic_Main',
    bAllDeadOrWin: true,
    CustomHost: '',
  });
}

export function eventBytes(event: GeneratedEvent, id: string): Buffer {
  const details = {
    instigatorNetId: `account.${Buffer.from(event.instigator).toString('hex').slice(0, 16)}`,
    instigatorName: event.instigator,
    victimNetId: `account.${Buffer.from(event.victim).toString('hex').slice(0, 16)}`,
    victimName: event.victim,
    damageCauseClassName: 'WeapHK416_C',
    damageTypeCategory: 'Damage_Gun',
    ...(event.kind === 'kill' ? { bDBNO: event.victimWasKnocked ?? false } : {}),
  };
  return framed({
    id,
    group: event.kind === 'kill' ? 'kill' : 'groggy',
    meta: '',
    time1: event.offsetMs,
    time2: event.offsetMs,
    data: Buffer.from(JSON.stringify(details), 'utf8').toString('base64'),
  });
}

/** Every file of the replay folder, the info file last (the order the game finishes them is not known; the last is the hardest). */
export function replayFiles(replay: GeneratedReplay): GeneratedFile[] {
  let knocks = 0;
  let kills = 0;
  const events = replay.events.map((event) => {
    const id = event.kind === 'knock' ? `DBNO${knocks++}` : `kill${kills++}`;
    return { path: `${replay.folder}/events/${id}`, bytes: eventBytes(event, id) };
  });
  return [
    { path: `${replay.folder}/data/0`, bytes: framed({ Obfuscated: Buffer.from('UE4 string').toString('base64') }) },
    { path: `${replay.folder}/demo/demo0`, bytes: Buffer.alloc(4096, 0xa5) },
    ...events,
    { path: `${replay.folder}/PUBG.replayinfo`, bytes: replayInfoBytes(replay) },
  ];
}

/** The files of the replay the integration watches (the feed reports only these), the info file last. */
export function watchedReplayFiles(replay: GeneratedReplay): GeneratedFile[] {
  return replayFiles(replay).filter((file) => REPLAY_FILE_PATTERN.test(file.path));
}

export async function writeReplayFolder(demosFolder: string, replay: GeneratedReplay): Promise<void> {
  for (const file of replayFiles(replay)) await writeGeneratedFile(demosFolder, file);
}

export async function writeGeneratedFile(folder: string, file: GeneratedFile): Promise<void> {
  const target = replayFilePath(folder, file.path);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, file.bytes);
}
