// The ladder a recording that cannot keep up steps down: x264's next faster preset first (down to
// the fastest), then 30 frames a second, then the next smaller resolution. Pure.
import { captureFormat } from '../media/session-encoding.js';
import { fasterX264Preset } from '../media/video-encoder.js';
import { RESOLUTIONS, type EncodeLevel, type Settings } from '../protocol/index.js';

type Resolution = Settings['resolution'];

const LOWEST_STEPPED_FRAME_RATE = 30;
/**
 * What a faster preset saves is uncertain (on a detailed 1080p picture ultrafast can even cost more
 * than superfast at a recording's bitrate), so it counts for little; frame rate and picture size
 * cost in proportion. The margin leaves room for the game the encoder shares the machine with.
 */
const PRESET_COST_SHARE = 0.85;
const HEADROOM = 0.95;

/**
 * The level to record at after an encode at `level` got `keepUpShare` of its work done in time (0.6:
 * 60 % of the frames, or 0.6x real time): rungs are taken, at least one, until the estimated cost fits
 * in that share with some headroom, or the ladder ends. Undefined when `level` is already at the bottom.
 */
export function stepDown(level: EncodeLevel, keepUpShare: number): EncodeLevel | undefined {
  let next = level;
  let cost = 1;
  const target = Math.max(0, keepUpShare) * HEADROOM;
  do {
    const rung = nextRung(next);
    if (!rung) break;
    next = rung.level;
    cost *= rung.cost;
  } while (cost > target);
  return next === level ? undefined : next;
}

function nextRung(level: EncodeLevel): { level: EncodeLevel; cost: number } | undefined {
  const preset = level.preset === null ? undefined : fasterX264Preset(level.preset);
  if (preset) return { level: { ...level, preset }, cost: PRESET_COST_SHARE };
  if (level.frameRate > LOWEST_STEPPED_FRAME_RATE) {
    return { level: { ...level, frameRate: LOWEST_STEPPED_FRAME_RATE }, cost: LOWEST_STEPPED_FRAME_RATE / level.frameRate };
  }
  const index = RESOLUTIONS.indexOf(level.resolution as Resolution);
  if (index > 0) {
    const smaller = RESOLUTIONS[index - 1]!;
    const height = (resolution: Resolution) => captureFormat(resolution, level.frameRate, 0).height;
    return { level: { ...level, resolution: smaller }, cost: (height(smaller) / height(level.resolution as Resolution)) ** 2 };
  }
  return undefined;
}

/** The level an encode with these arguments runs at; the preset only for x264 (`codecId` libx264), which alone has presets on the ladder. */
export function encodeLevelOf(args: readonly string[], codecId: string, settings: Pick<Settings, 'frameRate' | 'resolution'>): EncodeLevel {
  const at = args.indexOf('-preset');
  return {
    preset: codecId === 'libx264' && at >= 0 ? args[at + 1]! : null,
    frameRate: settings.frameRate,
    resolution: settings.resolution,
  };
}
