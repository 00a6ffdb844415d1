import { expect } from 'chai';
import { TypedEvents } from './typed-events.js';

describe('TypedEvents', () => {
  interface Events extends Record<string, unknown> {
    added: { id: string };
    cleared: undefined;
  }

  it('delivers each emit to every listener of that name, in subscription order', () => {
    const events = new TypedEvents<Events>();
    const seen: string[] = [];
    events.on('added', ({ id }) => seen.push(`first ${id}`));
    events.on('added', ({ id }) => seen.push(`second ${id}`));
    events.on('cleared', () => seen.push('cleared'));
    events.emit('added', { id: 'a' });
    expect(seen).to.deep.equal(['first a', 'second a']);
  });

  it('stops calling a listener once its unsubscribe ran', () => {
    const events = new TypedEvents<Events>();
    let calls = 0;
    const off = events.on('cleared', () => calls++);
    events.emit('cleared', undefined);
    off();
    events.emit('cleared', undefined);
    expect(calls).to.equal(1);
  });

  it('runs the other listeners when one throws, then reports the failure', () => {
    const events = new TypedEvents<Events>();
    let reached = false;
    events.on('cleared', () => {
      throw new Error('listener broke');
    });
    events.on('cleared', () => (reached = true));
    expect(() => events.emit('cleared', undefined)).to.throw('listener broke');
    expect(reached).to.equal(true);
  });
});
