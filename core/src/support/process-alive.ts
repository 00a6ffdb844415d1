// Whether a process of this machine still runs, by its pid (the pid may since have been reused).
import { errorCode } from './file-errors.js';

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by another user.
    return errorCode(error) === 'EPERM';
  }
}
