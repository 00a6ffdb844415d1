// Serves a built single-page app from one folder: files by path, `index.html` for everything else.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { HttpHandler } from './http-routes.js';

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
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const relative = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const candidate = path.resolve(resolvedRoot, relative);
    const insideRoot = candidate === resolvedRoot || candidate.startsWith(resolvedRoot + path.sep);
    const file = insideRoot && (await isFile(candidate)) ? candidate : path.join(resolvedRoot, 'index.html');
    if (!(await isFile(file))) {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(fallbackPage());
      return;
    }
    const isIndex = file.endsWith(`${path.sep}index.html`);
    response.writeHead(200, {
      'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      // Built assets carry a content hash in their names; the page itself must always be fresh.
      'Cache-Control': isIndex ? 'no-store' : 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(file).pipe(response);
  };
}

async function isFile(candidate: string): Promise<boolean> {
  try {
    return (await stat(candidate)).isFile();
  } catch {
    return false;
  }
}
