// One file sent to the platform with the tus protocol (tus-js-client): the bearer token on every
// request, a 401 answered by renewing the token and retrying, dropped connections retried from the
// server's offset, and the upload URL kept in a file in the data folder (keyed by the file's
// fingerprint) so that a later run resumes instead of starting over.
import { createReadStream, type ReadStream } from 'node:fs';
import type * as tus from 'tus-js-client';
import { SignedOut, type AccountService } from '../accounts/account-service.js';
import { IdleLimitedHttpStack, NoAnswer } from './idle-limited-http-stack.js';

type UploadOptions = NonNullable<ConstructorParameters<typeof tus.Upload>[1]>;
type UrlStorage = NonNullable<UploadOptions['urlStorage']>;
type DetailedError = tus.DetailedError;

/** The Node build's parts that tus-js-client's type declarations leave out. */
interface NodeTus {
  Upload: new (file: ReadStream, options: UploadOptions) => tus.Upload;
  FileUrlStorage: new (filePath: string) => UrlStorage;
}
type TusModule = typeof tus & NodeTus;

/** Loaded at the first upload, not at start-up: importing tus-js-client costs a twentieth of a second of every start. */
const loadTus = async () => (await import('tus-js-client')) as unknown as TusModule;

/** Waits between retries: long enough together (about 80 s) to ride out a platform restart. */
const RETRY_DELAYS_MS = [0, 1000, 2000, 3000, 5000, 5000, 10000, 10000, 20000, 25000];
const TERMINATE_RETRY_DELAYS_MS = [0, 1000, 3000];
/**
 * How long a request may go without a byte either way before it counts as failed and is retried: short
 * enough that a host that never answers is reported within 10 s of the start, long enough for a platform
 * that is merely slow to answer a chunk.
 */
const IDLE_LIMIT_MS = 6000;

/** The platform refused the token; the retry that follows uses the renewed one. */
class TokenRefused extends Error {}

/** `abort` was called: the run ends without a result. */
export class TransferAborted extends Error {
  constructor() {
    super('The transfer was stopped.');
    this.name = 'TransferAborted';
  }
}

export interface TransferOptions {
  readonly filePath: string;
  readonly endpoint: string;
  readonly chunkBytes: number;
  readonly metadata: Readonly<Record<string, string>>;
  /** Where upload URLs are kept between runs. */
  readonly urlStorageFile: string;
  readonly account: AccountService;
  readonly onProgress: (bytesSent: number, bytesTotal: number) => void;
  readonly onUploadUrl: (url: string) => void;
  /** A request failed and is retried after `delayMs`; `problem` says what happened, for a person. */
  readonly onRetry: (problem: string, delayMs: number) => void;
}

export class TusTransfer {
  private upload: tus.Upload | undefined;
  private stop: ((error: Error) => void) | undefined;
  private aborted = false;

  constructor(private readonly options: TransferOptions) {}

  /** Sends the file (or what the server lacks of it); resolves with the upload's URL. */
  async run(): Promise<string> {
    const tus = await loadTus();
    if (this.aborted) throw new TransferAborted();
    return new Promise<string>((resolve, reject) => {
      this.stop = reject;
      const upload = new tus.Upload(createReadStream(this.options.filePath), {
        ...authorizationOptions(tus, this.options.account, RETRY_DELAYS_MS, this.options.onRetry),
        endpoint: this.options.endpoint,
        chunkSize: this.options.chunkBytes,
        metadata: { ...this.options.metadata },
        urlStorage: new tus.FileUrlStorage(this.options.urlStorageFile),
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        onProgress: this.options.onProgress,
        onUploadUrlAvailable: () => {
          if (upload.url) this.options.onUploadUrl(upload.url);
        },
        onSuccess: () => (upload.url ? resolve(upload.url) : reject(new Error('The platform did not name the upload.'))),
        onError: (error) => reject(new Error(describeFailure(error))),
      });
      this.upload = upload;
      upload.findPreviousUploads().then((previous) => {
        const newest = previous.sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
        if (newest) upload.resumeFromPreviousUpload(newest);
        upload.start();
      }, reject);
    });
  }

  /** Stops sending; with `terminate`, also asks the server to delete what it received (tus termination). */
  async abort(terminate: boolean): Promise<void> {
    this.aborted = true;
    this.stop?.(new TransferAborted());
    await this.upload?.abort(terminate);
  }
}

/** Deletes an upload the server holds (tus termination), e.g. one that finished before a restart. */
export async function terminateUpload(url: string, account: AccountService): Promise<void> {
  const tus = await loadTus();
  return tus.Upload.terminate(url, authorizationOptions(tus, account, TERMINATE_RETRY_DELAYS_MS));
}

function authorizationOptions(
  tus: TusModule,
  account: AccountService,
  retryDelays: number[],
  onRetry: (problem: string, delayMs: number) => void = () => undefined,
): UploadOptions {
  return {
    retryDelays,
    httpStack: new IdleLimitedHttpStack(tus.DefaultHttpStack, IDLE_LIMIT_MS),
    onBeforeRequest: async (request) => {
      request.setHeader('Authorization', `Bearer ${await account.accessToken()}`);
    },
    onAfterResponse: async (request, response) => {
      if (response.getStatus() !== 401) return;
      await account.renewAfterRejection((request.getHeader('Authorization') ?? '').replace(/^Bearer /, ''));
      throw new TokenRefused('The platform refused the access token.');
    },
    onShouldRetry: (error, attempt) => {
      if (error.causingError instanceof SignedOut) return false;
      if (error.causingError instanceof TokenRefused) return true;
      // tus-js-client's own rule: not for client errors, except a conflict or a lock.
      const status = error.originalResponse?.getStatus() ?? 0;
      const retried = status < 400 || status >= 500 || status === 409 || status === 423;
      if (retried) onRetry(describeProblem(error), retryDelays[attempt] ?? 0);
      return retried;
    },
  };
}

/** What went wrong, for a person: the platform's answer or why it could not be reached; no URLs with ids, no headers. */
function describeFailure(error: Error | DetailedError): string {
  const detailed = error as Partial<DetailedError>;
  if (detailed.causingError instanceof SignedOut) return detailed.causingError.message;
  const response = detailed.originalResponse;
  if (response) {
    const body = response.getBody().trim().slice(0, 200);
    return `The platform refused the upload (HTTP ${response.getStatus()}${body ? `: ${body}` : ''}).`;
  }
  return `${describeProblem(detailed)}.`;
}

/** A failed request in a few words, naming the host: `Can't reach uploads.example.com (connection refused)`. */
function describeProblem(error: Partial<DetailedError> & { message?: string }): string {
  const request = error.originalRequest;
  const host = request ? new URL(request.getURL()).host : 'the platform';
  const status = error.originalResponse?.getStatus();
  if (status !== undefined) return `${host} answered HTTP ${status}`;
  return `Can't reach ${host} (${networkCause(error.causingError ?? error)})`;
}

const NETWORK_CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function networkCause(error: { message?: string; code?: unknown }): string {
  if (error instanceof NoAnswer) return error.message;
  return (typeof error.code === 'string' ? NETWORK_CAUSES[error.code] : undefined) ?? error.message ?? 'unknown error';
}
