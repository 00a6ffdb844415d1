// After the file is sent the platform post-processes it; `GET <processing URL>/<upload id>` answers
// `{status: "processing" | "ready" | "failed", url?, message?}` until it is ready with the public URL.
import { setTimeout as delay } from 'node:timers/promises';
import { authorizedFetch } from '../accounts/authorized-fetch.js';
import { SignedOut, type AccountService } from '../accounts/account-service.js';
import type { Logger } from '../support/logger.js';

const POLL_INTERVAL_MS = 1000;
const PROCESSING_DEADLINE_MS = 60 * 60 * 1000;
const REQUEST_TIMEOUT_MS = 30_000;

/** `<processing URL>/<id>`, the id being the last path segment of the tus upload URL. */
export function processingStatusUrl(processingUrl: string, uploadUrl: string): string {
  const id = lastPathSegment(uploadUrl);
  return new URL(encodeURIComponent(id), processingUrl.endsWith('/') ? processingUrl : `${processingUrl}/`).toString();
}

export function lastPathSegment(url: string): string {
  return new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
}

/** Polls until the platform reports the video ready; resolves with its public URL. */
export async function waitUntilProcessed(statusUrl: string, account: AccountService, logger: Logger, signal: AbortSignal): Promise<string> {
  const deadline = Date.now() + PROCESSING_DEADLINE_MS;
  for (;;) {
    const report = await askStatus(statusUrl, account, signal).catch((error: unknown) => {
      if (signal.aborted || !(error instanceof TransientStatusError)) throw error;
      logger.debug('processing status not available, asking again', { reason: error.message });
      return undefined;
    });
    if (report?.status === 'ready') return report.url;
    if (Date.now() > deadline) throw new Error('The platform did not finish processing the video within an hour.');
    await delay(POLL_INTERVAL_MS, undefined, { signal });
  }
}

type StatusReport = { status: 'processing' } | { status: 'ready'; url: string };

/** Worth asking again: the platform could not be reached or had a server error. */
class TransientStatusError extends Error {}

async function askStatus(statusUrl: string, account: AccountService, signal: AbortSignal): Promise<StatusReport> {
  const response = await authorizedFetch(account, statusUrl, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
  }).catch((error: unknown) => {
    if (signal.aborted || error instanceof SignedOut) throw error;
    throw new TransientStatusError((error as Error).message);
  });
  if (response.status >= 500) throw new TransientStatusError(`HTTP ${response.status}`);
  const body: unknown = await response.json().catch(() => undefined);
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (!response.ok) {
    throw new Error(
      `The platform's processing status answered HTTP ${response.status}${typeof fields.message === 'string' ? `: ${fields.message}` : ''}.`,
    );
  }
  if (fields.status === 'failed') {
    throw new Error(`The platform could not process the video${typeof fields.message === 'string' ? `: ${fields.message}` : '.'}`);
  }
  if (fields.status === 'ready') {
    if (typeof fields.url !== 'string' || !/^https?:\/\//.test(fields.url))
      throw new Error('The platform reported the video ready without a public URL.');
    return { status: 'ready', url: fields.url };
  }
  return { status: 'processing' };
}
