// One file sent to the platform with the tus protocol (tus-js-client): the bearer token on every
// request, a 401 answered by renewing the token and retrying, dropped connections retried from the
// server's offset, and the upload URL kept in a file in the data folder (keyed by the file's
// fingerprint) so that a later run resumes instead of starting over.
import { createReadStream, type ReadStream } from 'node:fs';
import * as tus from 'tus-js-client';
import { SignedOut, type AccountService } from '../accounts/account-service.js';

type UploadOptions = NonNullable<ConstructorParameters<typeof tus.Upload>[1]>;
type UrlStorage = NonNullable<UploadOptions['urlStorage']>;
type DetailedError = tus.DetailedError;

/** The Node build's parts that tus-js-client's type declarations leave out. */
interface NodeTus {
  Upload: new (file: ReadStream, options: UploadOptions) => tus.Upload;
  FileUrlStorage: new (filePath: string) => UrlStorage;
}
const nodeTus = tus as unknown as NodeTus;

/** Waits between retries: long enough together (about 80 s) to ride out a platform restart. */
const RETRY_DELAYS_MS = [0, 1000, 2000, 3000, 5000, 5000, 10000, 10000, 20000, 25000];
const TERMINATE_RETRY_DELAYS_MS = [0, 1000, 3000];

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
}

export class TusTransfer {
  private upload: tus.Upload | undefined;
  private stop: ((error: Error) => void) | undefined;

  constructor(private readonly options: TransferOptions) {}

  /** Sends the file (or what the server lacks of it); resolves with the upload's URL. */
  run(): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.stop = reject;
      const upload = new nodeTus.Upload(createReadStream(this.options.filePath), {
        ...authorizationOptions(this.options.account, RETRY_DELAYS_MS),
        endpoint: this.options.endpoint,
        chunkSize: this.options.chunkBytes,
        metadata: { ...this.options.metadata },
        urlStorage: new nodeTus.FileUrlStorage(this.options.urlStorageFile),
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
    this.stop?.(new TransferAborted());
    await this.upload?.abort(terminate);
  }
}

/** Deletes an upload the server holds (tus termination), e.g. one that finished before a restart. */
export function terminateUpload(url: string, account: AccountService): Promise<void> {
  return tus.Upload.terminate(url, authorizationOptions(account, TERMINATE_RETRY_DELAYS_MS));
}

function authorizationOptions(account: AccountService, retryDelays: number[]): UploadOptions {
  return {
    retryDelays,
    onBeforeRequest: async (request) => {
      request.setHeader('Authorization', `Bearer ${await account.accessToken()}`);
    },
    onAfterResponse: async (request, response) => {
      if (response.getStatus() !== 401) return;
      await account.renewAfterRejection((request.getHeader('Authorization') ?? '').replace(/^Bearer /, ''));
      throw new TokenRefused('The platform refused the access token.');
    },
    onShouldRetry: (error) => {
      if (error.causingError instanceof SignedOut) return false;
      if (error.causingError instanceof TokenRefused) return true;
      // tus-js-client's own rule: not for client errors, except a conflict or a lock.
      const status = error.originalResponse?.getStatus() ?? 0;
      return status < 400 || status >= 500 || status === 409 || status === 423;
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
  const cause = detailed.causingError?.message ?? error.message;
  return `The platform could not be reached: ${cause}`;
}
