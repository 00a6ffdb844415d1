import 'reflect-metadata';
import { expect } from 'chai';
import { CommandError } from '../protocol/refusal.js';
import { Logger } from '../support/logger.js';
import { StorageWarnings, type StorageWarningRequest } from './storage-warnings.js';
import { RecordedEvents, commandRejection } from '../testing/fixtures.js';

describe('StorageWarnings', () => {
  let events: RecordedEvents;
  let warnings: StorageWarnings;
  let calls: string[];
  const request = (action: StorageWarningRequest['action'] = 'storageLimit'): StorageWarningRequest => ({
    title: 'Over the limit',
    description: 'The folder holds 1.5 GB',
    confirmText: 'Use Folder',
    action,
    onConfirm: () => {
      calls.push('confirm');
    },
    onCancel: () => {
      calls.push('cancel');
    },
  });

  beforeEach(() => {
    events = new RecordedEvents();
    warnings = new StorageWarnings(events, new Logger([]));
    calls = [];
  });

  it('sends the warning in the reference shape: GUID, texts, action and actionData {warningId}', () => {
    const warningId = warnings.warn(request());
    expect(warningId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(events.sent).to.deep.equal([
      {
        method: 'StorageWarning',
        content: {
          warningId,
          title: 'Over the limit',
          description: 'The folder holds 1.5 GB',
          confirmText: 'Use Folder',
          cancelText: 'Cancel',
          action: 'storageLimit',
          actionData: { warningId },
        },
      },
    ]);
    expect(warnings.pendingCount).to.equal(1);
    expect(calls).to.deep.equal([]);
  });

  it('runs the held action once when confirmed', async () => {
    const warningId = warnings.warn(request('import'));
    await warnings.answer({ warningId, confirmed: true, action: 'import', actionData: { warningId } });
    expect(calls).to.deep.equal(['confirm']);
    expect(warnings.pendingCount).to.equal(0);
    expect((await commandRejection(warnings.answer({ warningId, confirmed: true, action: 'import' }))).code).to.equal('NotFound');
    expect(calls).to.deep.equal(['confirm']);
  });

  it('drops the held action when cancelled, running only the cancel step', async () => {
    const warningId = warnings.warn(request());
    await warnings.answer({ warningId, confirmed: false, action: 'storageLimit' });
    expect(calls).to.deep.equal(['cancel']);
    expect(warnings.pendingCount).to.equal(0);
  });

  it('keeps warnings apart and refuses unknown ids and a wrong action', async () => {
    const first = warnings.warn(request());
    const second = warnings.warn(request('import'));
    expect(first).to.not.equal(second);
    expect(
      (await commandRejection(warnings.answer({ warningId: 'no-such-warning', confirmed: true, action: 'storageLimit' }))).code,
    ).to.equal('NotFound');
    const wrong = await commandRejection(warnings.answer({ warningId: second, confirmed: true, action: 'storageLimit' }));
    expect(wrong.code).to.equal('InvalidParameters');
    expect(warnings.pendingCount).to.equal(2);
    await warnings.answer({ warningId: second, confirmed: true, action: 'import' });
    await warnings.answer({ warningId: first, confirmed: false, action: 'storageLimit' });
    expect(calls).to.deep.equal(['confirm', 'cancel']);
  });

  it('passes on a refusal of the confirmed action', async () => {
    const warningId = warnings.warn({
      ...request(),
      onConfirm: () => {
        throw new CommandError('NotAllowed', 'recording');
      },
    });
    expect((await commandRejection(warnings.answer({ warningId, confirmed: true, action: 'storageLimit' }))).code).to.equal('NotAllowed');
    expect(warnings.pendingCount).to.equal(0);
  });

  it('sends unanswered warnings again to a new frontend, under their own ids; a withdrawn one is gone', async () => {
    events.isConnected = false;
    const first = warnings.warn(request());
    const second = warnings.warn(request('import'));
    events.isConnected = true;
    events.sent.length = 0;
    warnings.offerPending();
    expect(events.of('StorageWarning').map((warning) => warning.warningId)).to.deep.equal([first, second]);
    warnings.withdraw(first);
    expect(warnings.isPending(first)).to.equal(false);
    expect((await commandRejection(warnings.answer({ warningId: first, confirmed: true, action: 'storageLimit' }))).code).to.equal(
      'NotFound',
    );
    expect(calls).to.deep.equal([]);
    events.sent.length = 0;
    warnings.offerPending();
    expect(events.of('StorageWarning').map((warning) => warning.warningId)).to.deep.equal([second]);
  });
});
