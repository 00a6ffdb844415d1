// How a feed that speaks TLS to a game's loopback endpoint checks its certificate: the system's
// authorities (default), the game's own root (`ca`), or none (`acceptSelfSignedCertificate`).
import { X509Certificate } from 'node:crypto';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import type { LoopbackTlsOptions } from '../../sdk/feed-types.js';

/** What `https.request`, `tls.connect` and `ws` take. */
export interface TlsCheck {
  rejectUnauthorized: boolean;
  ca?: string;
  checkServerIdentity?: (host: string, certificate: PeerCertificate) => Error | undefined;
}

/** Throws, naming the feed, when the options contradict each other or `ca` is not a PEM certificate. */
export function tlsCheck(feed: string, options: LoopbackTlsOptions): TlsCheck {
  const { acceptSelfSignedCertificate, ca, servername } = options;
  if (acceptSelfSignedCertificate && ca !== undefined) {
    throw new Error(`${feed}: give either ca (to trust the game's own authority) or acceptSelfSignedCertificate, not both`);
  }
  if (ca !== undefined) {
    try {
      new X509Certificate(ca);
    } catch (error) {
      throw new Error(`${feed}: ca is not a PEM certificate (${(error as Error).message})`);
    }
  }
  if (servername !== undefined && (typeof servername !== 'string' || servername.trim() === '')) {
    throw new Error(`${feed}: servername must be a host name`);
  }
  return {
    rejectUnauthorized: !acceptSelfSignedCertificate,
    ...(ca === undefined ? {} : { ca }),
    ...(servername === undefined ? {} : { checkServerIdentity: (_host, certificate) => checkServerIdentity(servername, certificate) }),
  };
}
