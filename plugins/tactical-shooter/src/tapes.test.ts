// Every tape under test/data replays into this integration and gives the bookmarks in its expected file.
import 'reflect-metadata';
import { itReplaysEveryTape } from '@keyframe/integration-testkit';
import { fileURLToPath } from 'node:url';

describe('tactical-shooter tapes', () => {
  itReplaysEveryTape(fileURLToPath(new URL('../', import.meta.url)));
});
