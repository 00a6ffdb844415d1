// Where the hosting platform lives: its OAuth 2 token endpoint, its tus upload endpoint and its
// post-processing status endpoint. Defaults name the public platform; `KEYFRAME_*` variables point
// a service (a test, a staging setup) at another one.

export interface PlatformEndpoints {
  /** OAuth 2 token endpoint, asked with `grant_type=refresh_token`. */
  readonly tokenUrl: string;
  /** `client_id` sent with a renewal (public client: no secret). */
  readonly clientId: string;
  /** tus creation endpoint. */
  readonly uploadUrl: string;
  /** `GET <this>/<upload id>` tells how the platform's post-processing of an upload is going. */
  readonly processingUrl: string;
  /** Bytes per tus PATCH request; proxies in front of a platform often limit request bodies. */
  readonly uploadChunkBytes: number;
}

const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;

export const DEFAULT_PLATFORM_ENDPOINTS: PlatformEndpoints = {
  tokenUrl: 'https://accounts.keyframe.gg/oauth/token',
  clientId: 'keyframe-desktop',
  uploadUrl: 'https://upload.keyframe.gg/files/',
  processingUrl: 'https://upload.keyframe.gg/processing/',
  uploadChunkBytes: DEFAULT_CHUNK_BYTES,
};

/** The defaults, each overridden by its `KEYFRAME_*` variable when that is set. */
export function platformEndpointsFrom(variables: NodeJS.ProcessEnv): PlatformEndpoints {
  const chunkBytes = Number(variables.KEYFRAME_UPLOAD_CHUNK_BYTES);
  return {
    tokenUrl: variables.KEYFRAME_ACCOUNT_TOKEN_URL || DEFAULT_PLATFORM_ENDPOINTS.tokenUrl,
    clientId: variables.KEYFRAME_ACCOUNT_CLIENT_ID || DEFAULT_PLATFORM_ENDPOINTS.clientId,
    uploadUrl: variables.KEYFRAME_UPLOAD_URL || DEFAULT_PLATFORM_ENDPOINTS.uploadUrl,
    processingUrl: variables.KEYFRAME_UPLOAD_PROCESSING_URL || DEFAULT_PLATFORM_ENDPOINTS.processingUrl,
    uploadChunkBytes: Number.isSafeInteger(chunkBytes) && chunkBytes >= 1024 ? chunkBytes : DEFAULT_CHUNK_BYTES,
  };
}
