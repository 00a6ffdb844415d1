import { formatElapsed } from '../format/elapsed';
import { useNow } from '../hooks/use-now';

/** Time since `startTime` (an ISO date-time), ticking every second. */
export function ElapsedTime({ startTime }: { startTime: string }) {
  const now = useNow(1000);
  const startedAt = Date.parse(startTime);
  return (
    <time className="elapsed" dateTime={startTime}>
      {Number.isNaN(startedAt) ? '–:––' : formatElapsed(now - startedAt)}
    </time>
  );
}
