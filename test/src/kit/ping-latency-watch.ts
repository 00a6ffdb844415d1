// Sends `ping` on a frontend's connection every ~50 ms while a test runs and measures each `pong`:
// the service's responsiveness under load, as a user's frontend would feel it. The service has one
// active connection, so the watch shares the test's client; the test must not send `ping` itself
// while a watch runs (pongs are matched to pings in order).
import { type ProtocolClient } from '@keyframe/integration-testkit';

export interface PingLatencyReport {
  /** Pings answered. */
  answered: number;
  /** Pings still unanswered when the watch stopped (after its grace period). */
  unanswered: number;
  worstMs: number;
  medianMs: number;
}

export interface PingLatencyWatch {
  /** Stops pinging, waits up to `graceMs` for outstanding pongs, and reports. */
  stop(graceMs?: number): Promise<PingLatencyReport>;
}

/** Pongs are noticed by polling the client's event list every millisecond: a reading is at most ~1 ms high. */
const POLL_MS = 1;

export function pingLatencyWatch(client: ProtocolClient, intervalMs = 50): PingLatencyWatch {
  const pending: number[] = [];
  const latencies: number[] = [];
  let scanned = client.events.length;

  const collect = () => {
    const now = performance.now();
    for (; scanned < client.events.length; scanned++) {
      if (client.events[scanned]!.method !== 'pong') continue;
      const sentAt = pending.shift();
      if (sentAt !== undefined) latencies.push(now - sentAt);
    }
  };
  const ping = () => {
    if (!client.isOpen) return;
    pending.push(performance.now());
    client.sendRaw('ping');
  };
  ping();
  const pinger = setInterval(ping, intervalMs);
  const poller = setInterval(collect, POLL_MS);

  return {
    async stop(graceMs = 5000) {
      clearInterval(pinger);
      const deadline = Date.now() + graceMs;
      while (pending.length > 0 && client.isOpen && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      clearInterval(poller);
      collect();
      const now = performance.now();
      const waited = pending.map((sentAt) => now - sentAt);
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        answered: latencies.length,
        unanswered: pending.length,
        worstMs: Math.max(0, ...latencies, ...waited),
        medianMs: sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!,
      };
    },
  };
}
