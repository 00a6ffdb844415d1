// Wire dialects: SPEC's names (`spec`, what the schemas use) or the reference frontend's (`reference`,
// protocol-gaps.md §2 plus the fields where Keyframe chose neutral names). One table says where each name
// differs, position by position in the schemas; events are translated on their way out, commands on their
// way in, at the transport boundary only. No Node built-ins: the UI bundle may import this module.
import type { CommandName } from './commands.js';
import type { EventContent, EventName } from './events.js';
import type { INTEGRATION_KEYS, WireDialect } from './settings.js';

/** Where names differ inside one value, following its schema. Names in `keys` and `fields` are SPEC's. */
export interface Renames {
  /** Keys of this object (properties, or the keys of a map) that have another name: SPEC's → the dialect's. */
  readonly keys?: Readonly<Record<string, string>>;
  /** What differs inside the value under a key. */
  readonly fields?: Readonly<Record<string, Renames>>;
  /** What differs inside each item of this array. */
  readonly items?: Renames;
  /** Numbers counted from another origin: the dialect's value is SPEC's plus this offset. */
  readonly offsets?: Readonly<Record<string, number>>;
}

/** Everything one dialect names differently; commands and events by their SPEC names. */
export interface DialectTable {
  readonly eventNames: Readonly<Partial<Record<EventName, string>>>;
  readonly events: Readonly<Partial<Record<EventName, Renames>>>;
  readonly commands: Readonly<Partial<Record<CommandName, Renames>>>;
}

export type TranslatedDialect = Exclude<WireDialect, 'spec'>;

/** The reference frontend's names of SPEC's ten integration keys. */
const REFERENCE_INTEGRATION_NAMES: Readonly<Record<(typeof INTEGRATION_KEYS)[number], string>> = {
  tacticalShooter: 'counterStrike2',
  arenaGameA: 'leagueOfLegends',
  battleRoyale: 'pubg',
  vehicleSoccer: 'rocketLeague',
  arenaGameB: 'dota2',
  blockSandbox: 'minecraft',
  survivalGame: 'rust',
  fantasySurvival: 'runescapeDragonwilds',
  vehicleCombat: 'warThunder',
  openWorldCrime: 'gta',
};

/** A map keyed by integration key: Settings.gameIntegrations and the State extensions keyed the same way. */
const referenceIntegrationKeys: Renames = { keys: REFERENCE_INTEGRATION_NAMES };
/** Segment, content item, GameSetting, GameList entry: the game's database id. */
const withReferenceGameId: Renames = { keys: { gameDatabaseId: 'igdbId' } };
const referenceSettings: Renames = {
  keys: { selectedCaptureEngineVersion: 'selectedOBSVersion' },
  fields: { games: { items: withReferenceGameId }, gameIntegrations: referenceIntegrationKeys },
};

export const DIALECT_TABLES: Readonly<Record<TranslatedDialect, DialectTable>> = {
  reference: {
    eventNames: { CaptureEngineDownloadProgress: 'ObsDownloadProgress' },
    events: {
      State: {
        keys: { hasLoadedCaptureEngine: 'hasLoadedObs', availableCaptureEngineVersions: 'availableOBSVersions' },
        fields: {
          content: { items: withReferenceGameId },
          integrations: referenceIntegrationKeys,
          integrationSettings: referenceIntegrationKeys,
        },
      },
      Settings: referenceSettings,
      GameList: { items: withReferenceGameId },
      ClipProgress: { fields: { segments: { items: withReferenceGameId } } },
      AiProgress: { fields: { content: withReferenceGameId } },
      // The reference counts the files of an import from 1 (its "file i of n"); SPEC from 0.
      ImportProgress: { offsets: { currentFileIndex: 1 } },
    },
    commands: {
      CreateClip: { fields: { Segments: { items: withReferenceGameId } } },
      UploadContent: { keys: { GameDatabaseId: 'IgdbId' } },
      UpdateSettings: referenceSettings,
    },
  },
};

/** The same renames read the other way: the dialect's names → SPEC's, offsets taken off. */
function inverted(renames: Renames): Renames {
  const keys = renames.keys ?? {};
  const dialectName = (specName: string) => keys[specName] ?? specName;
  return {
    keys: Object.fromEntries(Object.entries(keys).map(([specName, name]) => [name, specName])),
    fields: Object.fromEntries(Object.entries(renames.fields ?? {}).map(([specName, inner]) => [dialectName(specName), inverted(inner)])),
    ...(renames.items && { items: inverted(renames.items) }),
    offsets: Object.fromEntries(Object.entries(renames.offsets ?? {}).map(([specName, offset]) => [dialectName(specName), -offset])),
  };
}

const INCOMING_COMMANDS: Readonly<Record<TranslatedDialect, Readonly<Record<string, Renames>>>> = {
  reference: Object.fromEntries(Object.entries(DIALECT_TABLES.reference.commands).map(([method, renames]) => [method, inverted(renames)])),
};

/** Applies renames to a value; objects and arrays on a renamed path are copied, everything else is shared. */
function renamed(value: unknown, renames: Renames): unknown {
  if (Array.isArray(value)) return renames.items ? value.map((item) => renamed(item, renames.items!)) : value;
  if (value === null || typeof value !== 'object') return value;
  const { keys = {}, fields = {}, offsets = {} } = renames;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const offset = Object.hasOwn(offsets, key) ? offsets[key] : undefined;
      const translated =
        offset !== undefined && typeof inner === 'number'
          ? inner + offset
          : Object.hasOwn(fields, key)
            ? renamed(inner, fields[key])
            : inner;
      return [Object.hasOwn(keys, key) ? keys[key] : key, translated];
    }),
  );
}

export interface WireEvent {
  method: string;
  content: unknown;
}

/** An event as a connection in `dialect` receives it; in `spec`, the content itself (no walk, no copy). */
export function eventToDialect<E extends EventName>(dialect: WireDialect, method: E, content: EventContent<E>): WireEvent {
  if (dialect === 'spec') return { method, content };
  const table = DIALECT_TABLES[dialect];
  const renames = table.events[method];
  return { method: table.eventNames[method] ?? method, content: renames ? renamed(content, renames) : content };
}

/** A parsed command envelope `{Method, Parameters}` from a connection in `dialect`, in SPEC's names; in `spec`, the envelope itself. */
export function commandFromDialect<T extends { Method?: unknown; Parameters?: unknown }>(dialect: WireDialect, envelope: T): T {
  if (dialect === 'spec' || typeof envelope.Method !== 'string') return envelope;
  const renames = Object.hasOwn(INCOMING_COMMANDS[dialect], envelope.Method) ? INCOMING_COMMANDS[dialect][envelope.Method] : undefined;
  return renames && envelope.Parameters !== undefined ? { ...envelope, Parameters: renamed(envelope.Parameters, renames) } : envelope;
}
