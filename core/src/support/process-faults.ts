// What the process does with a fault no code caught: it is logged as an error with its stack. After an
// uncaught exception the process may be half-way through changing something, so it stops as cleanly
// as it can and exits non-zero (a launcher or the user restarts it) instead of carrying on.
import type { Logger } from './logger.js';

export const FAULT_EXIT_CODE = 1;
/** If a clean stop hangs after an uncaught exception, the process ends anyway this much later. */
const FORCED_EXIT_MS = 15_000;

export function handleProcessFaults(logger: Logger, shutdown: (reason: string, exitCode: number) => void): void {
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled promise rejection (a bug: please report it with this log)', { reason });
  });
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception (a bug: please report it with this log): stopping Keyframe', { error });
    setTimeout(() => process.exit(FAULT_EXIT_CODE), FORCED_EXIT_MS).unref();
    shutdown('Uncaught exception', FAULT_EXIT_CODE);
  });
}
