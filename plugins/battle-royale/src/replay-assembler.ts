// Puts a replay together from its files in whatever order they come (the info file may come after the
// events) and turns it into the recording player's Kill and Death bookmarks, each file once.
import type { BookmarkType } from '@keyframe/core';
import { bookmarkTypeOf } from './bookmark-rule.js';
import { parseReplayEvent, type ReplayEvent } from './replay-event.js';
import { parseReplayInfo, type ReplayInfo } from './replay-info.js';
import type { EventFile, InfoFile, ReplayFile } from './replay-layout.js';

export interface ReplayBookmark {
  type: BookmarkType;
  /** Match start + the event's offset. */
  at: Date;
  /** The event file it comes from. */
  file: string;
}

export interface AcceptResult {
  bookmarks: ReplayBookmark[];
  /** Why a file, or the whole replay, was skipped: for the log. */
  problems: string[];
  /** Set when this file was the replay's info file and it could be read. */
  info?: ReplayInfo;
}

interface ReplayState {
  info?: ReplayInfo;
  /** Why the replay is skipped as a whole. */
  corrupt?: string;
  /** Events read before the info file, waiting for the match start and the player's name. */
  waiting: { file: EventFile; event: ReplayEvent }[];
}

export class ReplayAssembler {
  private readonly claimed = new Set<string>();
  private readonly replays = new Map<string, ReplayState>();

  /** True the first time a path is claimed: the caller reads it and passes it to `accept`; later claims of it are refused. */
  claim(path: string): boolean {
    if (this.claimed.has(path)) return false;
    this.claimed.add(path);
    return true;
  }

  /** Gives a claimed path back unread, so a later look reads it (a read that was cut short). */
  release(path: string): void {
    this.claimed.delete(path);
  }

  accept(file: ReplayFile, bytes: Uint8Array): AcceptResult {
    const replay = this.stateOf(file.replay);
    if (replay.corrupt) return { bookmarks: [], problems: [] };
    return file.kind === 'info' ? this.acceptInfo(file, replay, bytes) : this.acceptEvent(file, replay, bytes);
  }

  private acceptInfo(file: InfoFile, replay: ReplayState, bytes: Uint8Array): AcceptResult {
    const parsed = parseReplayInfo(bytes);
    if (!parsed.ok) {
      replay.corrupt = parsed.reason;
      replay.waiting = [];
      return { bookmarks: [], problems: [`Skipped the replay ${file.replay}: ${file.path} is unreadable (${parsed.reason})`] };
    }
    replay.info = parsed.info;
    const waiting = replay.waiting.splice(0);
    return {
      bookmarks: waiting.flatMap(({ file: eventFile, event }) => bookmarkOf(eventFile, event, parsed.info)),
      problems: [],
      info: parsed.info,
    };
  }

  private acceptEvent(file: EventFile, replay: ReplayState, bytes: Uint8Array): AcceptResult {
    const parsed = parseReplayEvent(bytes, file.kind);
    if (!parsed.ok) return { bookmarks: [], problems: [`Skipped the event ${file.path}: ${parsed.reason}`] };
    if (!replay.info) {
      replay.waiting.push({ file, event: parsed.event });
      return { bookmarks: [], problems: [] };
    }
    return { bookmarks: bookmarkOf(file, parsed.event, replay.info), problems: [] };
  }

  private stateOf(replay: string): ReplayState {
    let state = this.replays.get(replay);
    if (!state) {
      state = { waiting: [] };
      this.replays.set(replay, state);
    }
    return state;
  }
}

function bookmarkOf(file: EventFile, event: ReplayEvent, info: ReplayInfo): ReplayBookmark[] {
  const type = bookmarkTypeOf(file.kind, event, info.player);
  return type ? [{ type, at: new Date(info.matchStartedAt.getTime() + event.offsetMs), file: file.path }] : [];
}
