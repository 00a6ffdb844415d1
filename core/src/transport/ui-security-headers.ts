// Headers on every page and file of the UI. The UI drives recordings, uploads and file deletion over
// its WebSocket, so no other site may frame it (clickjacking), and it talks to nothing but this service.
import { LOOPBACK_NAMES } from '../service-options.js';

/** `port` is the port the service listens on, as it appears in a URL ('' for 80). */
export function uiSecurityHeaders(port: string): Record<string, string> {
  // CSP has no syntax for IPv6 literals: a page opened at [::1] reaches itself through 'self' (ws: included).
  const origins = LOOPBACK_NAMES.filter((name) => !name.startsWith('[')).flatMap((name) => {
    const host = port === '' ? name : `${name}:${port}`;
    return [`http://${host}`, `ws://${host}`];
  });
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    // The live recording preview is a data: URL; the player may use blob: media.
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${origins.join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ];
  return {
    'Content-Security-Policy': policy.join('; '),
    // For browsers that predate frame-ancestors.
    'X-Frame-Options': 'SAMEORIGIN',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}
