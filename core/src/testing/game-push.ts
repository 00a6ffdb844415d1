// Posting to an httpPush feed the way a game's HTTP client does: node:http, no `Origin`, no
// `Sec-Fetch-*` (Node's `fetch` sends `Sec-Fetch-Mode` as a browser would, and is refused).
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { pushTokenFile } from '../feeds/live/push-token.js';

export interface GamePost {
  path?: string;
  /** Default: CS2's `Valve/Steam HTTP Client 1.0 (730)`. */
  userAgent?: string;
  /** More headers, e.g. an `Origin` to show that it is refused. */
  headers?: Record<string, string>;
}

/** POSTs `body` to 127.0.0.1:`port`; resolves with the status code once the answer is read. */
export function postAsGame(
  port: number,
  body: string,
  { path = '/', userAgent = 'Valve/Steam HTTP Client 1.0 (730)', headers = {} }: GamePost = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': userAgent, ...headers },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A JSON object body with its `auth` block set to carry `token`, as a game with Keyframe's config
 * sends it. Any other body is returned as it is (the feed refuses it: it has no token).
 */
export function withPushToken(body: string, token: string): string {
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return body;
  return JSON.stringify({ ...payload, auth: { token } });
}

/** The token a service with this data folder expects in game pushes (made when an integration first needed it). */
export function readPushToken(dataFolder: string): Promise<string> {
  return readFile(pushTokenFile(dataFolder), 'utf8').then((text) => text.trim());
}
