import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_GROUP, type CommandGroup } from '../commands/command-handlers.js';
import { PROCESS_LISTER } from '../games/game-detector.js';
import { EVENT_SINK } from '../protocol/event-sink.js';
import { SettingsStore } from '../settings/settings-store.js';
import { Notifier } from '../notices/notifier.js';
import { StatePublisher } from '../state/state-publisher.js';
import { Dispatcher } from '../transport/dispatcher.js';
import { RecordedEvents } from './fixtures.js';
import { createTestApp } from './test-app.js';

describe('createTestApp', () => {
  it('wires every service and command group the app registers, and answers commands through the real dispatcher', async () => {
    const events = new RecordedEvents();
    const app = await createTestApp({ overrides: [[EVENT_SINK, events]] });
    try {
      expect(app.container.resolveAll<CommandGroup>(COMMAND_GROUP)).to.have.length.greaterThan(10);
      await app.resolve(Dispatcher).handle('ping');
      expect(events.methods()).to.deep.equal(['pong']);
    } finally {
      await app.dispose();
    }
  });

  it('resolves an override wherever the token is injected, and one instance per class', async () => {
    const events = new RecordedEvents();
    const lister = () => Promise.resolve([]);
    const app = await createTestApp({
      overrides: [
        [EVENT_SINK, events],
        [PROCESS_LISTER, lister],
      ],
    });
    try {
      app.resolve(Notifier).showModal({ title: 'Hello', description: 'from a test', type: 'info' });
      expect(events.of('ShowModal')).to.have.length(1);
      expect(app.resolve(PROCESS_LISTER)).to.equal(lister);
      expect(app.resolve(StatePublisher)).to.equal(app.resolve(StatePublisher));
    } finally {
      await app.dispose();
    }
  });

  it('loads settings with the changes asked for, and removes the temporary data folder it made', async () => {
    const app = await createTestApp({ settings: { storageLimit: 7 } });
    expect(app.resolve(SettingsStore).current.storageLimit).to.equal(7);
    expect(app.resolve(SettingsStore).current.contentFolder).to.equal(path.join(app.dataFolder, 'Videos'));
    await app.dispose();
    expect(existsSync(app.dataFolder)).to.equal(false);
  });
});
