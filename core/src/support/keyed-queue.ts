// One task at a time per key, any number of keys side by side: edits of one library item (rename,
// delete, bookmarks, a compressed file taking its place) never interleave, edits of others never wait.

export class KeyedQueue {
  /** The last task queued under each key, settled or not; removed when the queue of a key runs dry. */
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every task queued under `key` before it has settled (fulfilled or not). */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Runs `task` holding every key; keys are taken in sorted order, so two batches never wait on each other. */
  runAll<T>(keys: Iterable<string>, task: () => Promise<T>): Promise<T> {
    return [...new Set(keys)].sort().reduceRight<() => Promise<T>>((inner, key) => () => this.run(key, inner), task)();
  }
}
