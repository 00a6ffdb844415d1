// Whether a media request comes from a page the service does not trust. A foreign page's <img>,
// <video> or <audio> sends no Origin, so the browser's fetch metadata (`Sec-Fetch-Site`) and the
// Referer tell where it comes from. Requests without any of these (a desktop host, curl) are served.
import type { IncomingMessage } from 'node:http';

/**
 * Why the request is refused, or undefined to serve it. `allows` is the origin policy: the service's
 * own pages and allow-listed origins. Another site's page, or the same site on another port, with no
 * Origin or Referer to tell which it is, is refused.
 */
export function crossSiteRefusal(request: IncomingMessage, allows: (origin: string) => boolean): string | undefined {
  const origin = request.headers.origin ?? originOf(request.headers.referer);
  if (origin !== undefined) return allows(origin) ? undefined : `from ${origin}, which is not allowed`;
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site' ? `a ${site} request from a page that does not say which` : undefined;
}

/** The origin of a Referer; `null` (allowed by no policy) when it is not a URL. */
function originOf(referer: string | undefined): string | undefined {
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
