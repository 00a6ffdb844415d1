import { expect } from 'chai';
import type { HealthReporter } from '../sdk/game-integration.js';
import { SilenceWarning } from './silence-warning.js';

class RecordedHealth implements Pick<HealthReporter, 'degraded'> {
  readonly degradations: (string | undefined)[] = [];
  degraded(reason: string | undefined): void {
    this.degradations.push(reason);
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SilenceWarning', () => {
  let health: RecordedHealth;
  let warning: SilenceWarning;
  beforeEach(() => {
    health = new RecordedHealth();
    warning = new SilenceWarning(health);
  });
  afterEach(() => warning.stop());

  it('reports the message once when nothing came within the time limit', async () => {
    warning.start({ message: 'No data yet', timeoutMs: 10 });
    await delay(5);
    expect(health.degradations).to.deep.equal([]);
    await delay(40);
    expect(health.degradations).to.deep.equal(['No data yet']);
  });

  it('reports nothing once stopped, and never clears health itself', async () => {
    warning.start({ message: 'No data yet', timeoutMs: 10 });
    warning.stop();
    await delay(40);
    expect(health.degradations).to.deep.equal([]);
  });

  it('starts over when started again, with the newest message and time limit', async () => {
    warning.start({ message: 'first', timeoutMs: 10 });
    warning.start({ message: 'second', timeoutMs: 30 });
    await delay(20);
    expect(health.degradations).to.deep.equal([]);
    await delay(40);
    expect(health.degradations).to.deep.equal(['second']);
  });

  it('does not keep the process alive', () => {
    let created: ReturnType<typeof setTimeout> | undefined;
    const realSetTimeout = globalThis.setTimeout;
    globalThis.setTimeout = ((handler: () => void, ms: number) => (created = realSetTimeout(handler, ms))) as typeof setTimeout;
    try {
      warning.start({ message: 'No data yet', timeoutMs: 60_000 });
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    expect(created?.hasRef()).to.equal(false);
  });
});
