// Runs a plugin hook with a deadline, turning a hang into an error like a throw or a rejection.

export class HookTimeoutError extends Error {
  constructor(hook: string, deadlineMs: number) {
    super(`${hook}() did not finish within ${deadlineMs} ms`);
    this.name = 'HookTimeoutError';
  }
}

export async function withDeadline<T>(hook: string, deadlineMs: number, run: () => Promise<T> | T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new HookTimeoutError(hook, deadlineMs)), deadlineMs);
  });
  try {
    // A hook that throws synchronously is caught here like one that rejects.
    return await Promise.race([Promise.resolve().then(run), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
