// Serves a built single-page app from one folder: files by path, `index.html` for everything else,
// every answer with the UI's security headers.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { HttpHandler } from './http-routes.js';
import { uiSecurityHeaders } from './ui-security-headers.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export function staticFiles(root: string, fallbackPage: () => string): HttpHandler {
  const resolvedRoot = path.resolve(root);
  return async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    // `url` is resolved against the service's own address, so its port is the one the UI is served on.
    const security = uiSecurityHeaders(url.port);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...security, Allow: 'GET, HEAD' }).end();
      return;
    }
    const pathname = decodePath(url.pathname);
    if (pathname === undefined) {
      // Any page can make a browser ask for such a URL (an <img src>): the asker's mistake, not ours.
      response
        .writeHead(400, { ...security, 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Bad Request: malformed percent-escape in the path');
      return;
    }
    const relative = pathname.replace(/^\/+/, '');
    const candidate = path.resolve(resolvedRoot, relative);
    const insideRoot = candidate === resolvedRoot || candidate.startsWith(resolvedRoot + path.sep);
    const file = insideRoot && (await isFile(candidate)) ? candidate : path.join(resolvedRoot, 'index.html');
    if (!(await isFile(file))) {
      response.writeHead(200, { ...security, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(fallbackPage());
      return;
    }
    const isIndex = file.endsWith(`${path.sep}index.html`);
    response.writeHead(200, {
      ...security,
      'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      // Built assets carry a content hash in their names; the page itself must always be fresh.
      'Cache-Control': isIndex ? 'no-store' : 'public, max-age=31536000, immutable',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const stream = createReadStream(file);
    // A file removed between stat and read (a UI rebuild) ends the answer; it must not throw.
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  };
}

function decodePath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

async function isFile(candidate: string): Promise<boolean> {
  try {
    return (await stat(candidate)).isFile();
  } catch {
    return false;
  }
}
