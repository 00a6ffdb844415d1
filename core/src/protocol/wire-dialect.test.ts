import { expect } from 'chai';
import { Value } from 'typebox/value';
import { Commands } from './commands.js';
import { Events } from './events.js';
import { INTEGRATION_KEYS, Settings } from './settings.js';
import { commandFromDialect, DIALECT_TABLES, eventToDialect, type Renames } from './wire-dialect.js';

/** The parts of a JSON schema the walk follows (TypeBox schemas are JSON schemas). */
interface Schema {
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  allOf?: Schema[];
}

/** The schema and the members of its unions and intersections: what a value at that position may be. */
const branches = (schema: Schema): Schema[] => [schema, ...[...(schema.anyOf ?? []), ...(schema.allOf ?? [])].flatMap(branches)];
const propertiesOf = (schema: Schema): Record<string, Schema> =>
  Object.assign({}, ...branches(schema).map((each) => each.properties ?? {}));
const mapValueOf = (schema: Schema): Schema | undefined =>
  branches(schema).flatMap((each) => Object.values(each.patternProperties ?? {}))[0];
const itemsOf = (schema: Schema): Schema | undefined => branches(schema).find((each) => each.items)?.items;

const table = DIALECT_TABLES.reference;
const integrationKeys: readonly string[] = INTEGRATION_KEYS;

/** Every problem of `renames` against `schema`: a SPEC name that is not there, a dialect name SPEC already uses there. */
function problemsOf(schema: Schema, renames: Renames, where: string): string[] {
  const properties = propertiesOf(schema);
  const mapValue = mapValueOf(schema);
  const problems: string[] = [];
  for (const [specName, name] of Object.entries(renames.keys ?? {})) {
    // A map's keys: only those keyed by integration key have renamed keys.
    const names = mapValue && !properties[specName] ? integrationKeys : Object.keys(properties);
    if (!names.includes(specName)) problems.push(`${where}.${specName} is not in the schema`);
    if (names.includes(name)) problems.push(`${where}.${name} is a name SPEC already uses there`);
  }
  for (const [specName, inner] of Object.entries(renames.fields ?? {})) {
    const field = properties[specName] ?? mapValue;
    if (field) problems.push(...problemsOf(field, inner, `${where}.${specName}`));
    else problems.push(`${where}.${specName} is not in the schema`);
  }
  if (renames.items) {
    const items = itemsOf(schema);
    if (items) problems.push(...problemsOf(items, renames.items, `${where}[]`));
    else problems.push(`${where} is not an array`);
  }
  for (const specName of Object.keys(renames.offsets ?? {})) {
    const types = branches(properties[specName] ?? {}).map((each) => (each as { type?: string }).type);
    if (!types.includes('integer')) problems.push(`${where}.${specName} is not an integer in the schema`);
  }
  return problems;
}

/** Where a property named `names` appears in a schema, as `where.a[].b` paths. */
function occurrencesIn(schema: Schema, names: ReadonlySet<string>, where: string): string[] {
  const found = branches(schema).flatMap((each) => [
    ...Object.entries(each.properties ?? {}).flatMap(([name, inner]) => [
      ...(names.has(name) ? [`${where}.${name}`] : []),
      ...occurrencesIn(inner, names, `${where}.${name}`),
    ]),
    ...(each.items ? occurrencesIn(each.items, names, `${where}[]`) : []),
  ]);
  return [...new Set(found)];
}

/** The positions of the table's renamed properties (not map keys), as `occurrencesIn` writes them. */
function renamedPaths(schema: Schema, renames: Renames, where: string): string[] {
  const properties = propertiesOf(schema);
  return [
    ...Object.keys(renames.keys ?? {})
      .filter((specName) => properties[specName])
      .map((specName) => `${where}.${specName}`),
    ...Object.entries(renames.fields ?? {}).flatMap(([specName, inner]) =>
      properties[specName] ? renamedPaths(properties[specName], inner, `${where}.${specName}`) : [],
    ),
    ...(renames.items ? renamedPaths(itemsOf(schema)!, renames.items, `${where}[]`) : []),
  ];
}

describe('wire dialects', () => {
  describe('the reference table, checked against the schemas', () => {
    const positions = [
      ...Object.entries(table.events).map(([method, renames]) => ({
        where: `event ${method}`,
        schema: Events[method as keyof typeof Events].content as Schema,
        renames,
      })),
      ...Object.entries(table.commands).map(([method, renames]) => ({
        where: `command ${method}`,
        schema: Commands[method as keyof typeof Commands].parameters as Schema,
        renames,
      })),
    ];

    it("names only what SPEC's schemas have there, and never a name they already use there", () => {
      expect(positions.flatMap(({ schema, renames, where }) => problemsOf(schema, renames, where))).to.deep.equal([]);
      for (const [method, name] of Object.entries(table.eventNames)) {
        expect(Events, method).to.have.property(method);
        expect(Events, name).not.to.have.property(name);
      }
    });

    it('covers every place the schemas have a renamed field', () => {
      const specNames = new Set(
        positions.flatMap(({ schema, renames, where }) => renamedPaths(schema, renames, where)).map((path) => path.split('.').pop()!),
      );
      const everywhere = [
        ...Object.entries(Events).flatMap(([method, { content }]) => occurrencesIn(content as Schema, specNames, `event ${method}`)),
        ...Object.entries(Commands).flatMap(([method, { parameters }]) =>
          occurrencesIn(parameters as Schema, specNames, `command ${method}`),
        ),
      ];
      const covered = positions.flatMap(({ schema, renames, where }) => renamedPaths(schema, renames, where));
      expect([...new Set(everywhere)].sort()).to.deep.equal([...new Set(covered)].sort());
      expect(covered).to.include.members(['event State.content[].gameDatabaseId', 'command UploadContent.GameDatabaseId']);
    });

    it('renames each of the ten integration keys SPEC names', () => {
      const settings = eventToDialect('reference', 'Settings', Value.Create(Settings)).content as Settings;
      expect(Object.keys(settings.gameIntegrations)).to.have.members([
        'counterStrike2',
        'leagueOfLegends',
        'pubg',
        'rocketLeague',
        'dota2',
        'minecraft',
        'rust',
        'runescapeDragonwilds',
        'warThunder',
        'gta',
      ]);
    });
  });

  describe('events out', () => {
    it('gives a reference connection its names in State, content items included, and leaves values alone', () => {
      const state = {
        hasLoadedCaptureEngine: true,
        availableCaptureEngineVersions: [{ version: '31.0', isBeta: false, supportsFrom: null, supportsTo: null, url: 'x' }],
        content: [{ fileName: 'a', gameDatabaseId: 1372, title: 'gameDatabaseId' }],
        integrations: { tacticalShooter: { status: 'idle', message: '' }, somePlugin: { status: 'active', message: '' } },
        integrationSettings: { vehicleSoccer: { type: 'object', properties: {} } },
        recording: null,
        unknownKey: { gameDatabaseId: 7 },
      };
      const { method, content } = eventToDialect('reference', 'State', state as never);
      expect(method).to.equal('State');
      expect(content).to.deep.equal({
        hasLoadedObs: true,
        availableOBSVersions: state.availableCaptureEngineVersions,
        content: [{ fileName: 'a', igdbId: 1372, title: 'gameDatabaseId' }],
        integrations: { counterStrike2: { status: 'idle', message: '' }, somePlugin: { status: 'active', message: '' } },
        integrationSettings: { rocketLeague: { type: 'object', properties: {} } },
        recording: null,
        unknownKey: { gameDatabaseId: 7 },
      });
      expect(state.content[0]).to.have.property('gameDatabaseId', 1372);
    });

    it('renames Settings, its games and its nested gameIntegrations with their values', () => {
      const settings = {
        selectedCaptureEngineVersion: '31.0',
        games: [{ name: 'A', paths: [], gameDatabaseId: 5, record: true }],
        gameIntegrations: {
          tacticalShooter: { enabled: false, tacticalShooter: 'kept' },
          openWorldCrime: { enabled: true },
          mine: { enabled: true },
        },
      };
      expect(eventToDialect('reference', 'Settings', settings as never).content).to.deep.equal({
        selectedOBSVersion: '31.0',
        games: [{ name: 'A', paths: [], igdbId: 5, record: true }],
        gameIntegrations: { counterStrike2: { enabled: false, tacticalShooter: 'kept' }, gta: { enabled: true }, mine: { enabled: true } },
      });
    });

    it('renames GameList entries, ClipProgress segments, the AiProgress item and the capture engine download event', () => {
      const gameList = eventToDialect('reference', 'GameList', [{ name: 'A', executables: [], gameDatabaseId: 3, icon: null }]);
      expect(gameList.content).to.deep.equal([{ name: 'A', executables: [], igdbId: 3, icon: null }]);
      const clip = eventToDialect('reference', 'ClipProgress', { id: 1, progress: 5, segments: [{ gameDatabaseId: null }] } as never);
      expect(clip.content).to.deep.equal({ id: 1, progress: 5, segments: [{ igdbId: null }] });
      const ai = eventToDialect('reference', 'AiProgress', { id: 'x', content: { gameDatabaseId: 9 } } as never);
      expect(ai.content).to.deep.equal({ id: 'x', content: { igdbId: 9 } });
      const download = eventToDialect('reference', 'CaptureEngineDownloadProgress', { progress: 40, status: 'downloading' });
      expect(download).to.deep.equal({ method: 'ObsDownloadProgress', content: { progress: 40, status: 'downloading' } });
    });

    it('counts the files of an import from 1 for the reference, so the summary reads "n of n"', () => {
      const progress = (currentFileIndex: number) => ({
        id: 1,
        fileName: 'a',
        progress: 0,
        status: 'importing' as const,
        totalFiles: 3,
        currentFileIndex,
      });
      expect(eventToDialect('reference', 'ImportProgress', progress(0)).content).to.include({ currentFileIndex: 1, totalFiles: 3 });
      expect(eventToDialect('reference', 'ImportProgress', progress(2)).content).to.include({ currentFileIndex: 3, totalFiles: 3 });
      expect(eventToDialect('spec', 'ImportProgress', progress(0)).content).to.include({ currentFileIndex: 0 });
    });

    it('leaves events without renames as they are', () => {
      const content = { method: 'UploadContent', code: 'Failed' as const, message: 'gameDatabaseId' };
      expect(eventToDialect('reference', 'CommandRejected', content).content).to.equal(content);
    });

    it('gives the spec dialect the very same content', () => {
      const state = { hasLoadedCaptureEngine: true } as never;
      expect(eventToDialect('spec', 'State', state).content).to.equal(state);
      expect(eventToDialect('spec', 'CaptureEngineDownloadProgress', { progress: 1, status: 'downloading' }).method).to.equal(
        'CaptureEngineDownloadProgress',
      );
    });
  });

  describe('commands in', () => {
    it("puts a reference UpdateSettings in SPEC's names, nested gameIntegrations and games included", () => {
      const envelope = {
        Method: 'UpdateSettings',
        Parameters: {
          selectedOBSVersion: '30.2',
          gameIntegrations: { counterStrike2: { enabled: false }, pubg: { enabled: true, pubg: 1 }, somePlugin: { enabled: false } },
          games: [{ name: 'A', paths: ['a.exe'], igdbId: 12, record: false }],
          futureSetting: { igdbId: 1 },
        },
      };
      expect(commandFromDialect('reference', envelope)).to.deep.equal({
        Method: 'UpdateSettings',
        Parameters: {
          selectedCaptureEngineVersion: '30.2',
          gameIntegrations: {
            tacticalShooter: { enabled: false },
            battleRoyale: { enabled: true, pubg: 1 },
            somePlugin: { enabled: false },
          },
          games: [{ name: 'A', paths: ['a.exe'], gameDatabaseId: 12, record: false }],
          futureSetting: { igdbId: 1 },
        },
      });
    });

    it('puts CreateClip segments and the UploadContent game id in SPEC names', () => {
      const clip = commandFromDialect('reference', { Method: 'CreateClip', Parameters: { Segments: [{ id: 1, igdbId: 4 }, { id: 2 }] } });
      expect(clip.Parameters).to.deep.equal({ Segments: [{ id: 1, gameDatabaseId: 4 }, { id: 2 }] });
      const upload = commandFromDialect('reference', { Method: 'UploadContent', Parameters: { FilePath: 'a', Title: 't', IgdbId: '7' } });
      expect(upload.Parameters).to.deep.equal({ FilePath: 'a', Title: 't', GameDatabaseId: '7' });
    });

    it('leaves envelopes it has nothing to rename in, and anything that is not a command, as they are', () => {
      for (const envelope of [
        { Method: 'DeleteContent', Parameters: { FileName: 'a', ContentType: 'Clip' } },
        { Method: 'UpdateSettings' },
        { Method: 42, Parameters: { igdbId: 1 } },
        { Method: 'toString', Parameters: { igdbId: 1 } },
        { Parameters: { igdbId: 1 } },
      ]) {
        expect(commandFromDialect('reference', envelope)).to.equal(envelope);
      }
    });

    it('gives the spec dialect the very same envelope', () => {
      const envelope = { Method: 'UpdateSettings', Parameters: { selectedOBSVersion: 'x' } };
      expect(commandFromDialect('spec', envelope)).to.equal(envelope);
    });
  });

  describe('round trips', () => {
    it("SPEC's Settings → reference → SPEC is unchanged, and reference → SPEC → reference too", () => {
      const specSettings = { ...Value.Create(Settings), games: [{ name: 'A', paths: [], gameDatabaseId: 1, record: true }] };
      const referenceSettings = eventToDialect('reference', 'Settings', specSettings).content;
      expect(commandFromDialect('reference', { Method: 'UpdateSettings', Parameters: referenceSettings }).Parameters).to.deep.equal(
        specSettings,
      );
      const back = commandFromDialect('reference', { Method: 'UpdateSettings', Parameters: referenceSettings }).Parameters;
      expect(eventToDialect('reference', 'Settings', back as Settings).content).to.deep.equal(referenceSettings);
    });

    it('a segment read from ClipProgress and sent back in CreateClip keeps its game id', () => {
      const segment = { id: 1, startTime: 0, endTime: 2, fileName: 'a', type: 'Session' as const, game: 'G', gameDatabaseId: 8 };
      const shown = eventToDialect('reference', 'ClipProgress', { id: 1, progress: 0, segments: [segment] }).content as {
        segments: unknown[];
      };
      expect(commandFromDialect('reference', { Method: 'CreateClip', Parameters: { Segments: shown.segments } }).Parameters).to.deep.equal({
        Segments: [segment],
      });
    });
  });
});
