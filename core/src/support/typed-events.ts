// A small typed event source for domain events: a feature announces what happened in its own terms
// (seconds, Dates, domain records) and does not know who listens; the State publisher is the usual listener.
export type EventMap = Record<string, unknown>;

type Listener<T> = (payload: T) => void;

export class TypedEvents<Events extends EventMap> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();

  /** Calls `listener` for every later `emit(name)`; the returned function stops that. */
  on<Name extends keyof Events>(name: Name, listener: Listener<Events[Name]>): () => void {
    let listeners = this.#listeners.get(name);
    if (!listeners) this.#listeners.set(name, (listeners = new Set()));
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Listeners run synchronously in the order they subscribed; one that throws does not stop the others. */
  emit<Name extends keyof Events>(name: Name, payload: Events[Name]): void {
    const listeners = this.#listeners.get(name);
    if (!listeners) return;
    const failures: unknown[] = [];
    for (const listener of [...listeners]) {
      try {
        (listener as Listener<Events[Name]>)(payload);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} listeners of '${String(name)}' failed`);
  }
}
