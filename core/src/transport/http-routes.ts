// Plain HTTP on the service's port (UI files, media): handlers by path prefix, first match wins.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { injectable } from 'tsyringe';

export type HttpHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => void | Promise<void>;

@injectable()
export class HttpRoutes {
  private readonly routes: { prefix: string; handler: HttpHandler }[] = [];

  add(prefix: string, handler: HttpHandler): void {
    this.routes.push({ prefix, handler });
    // Longest prefix first, so `/api/content` wins over `/`.
    this.routes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  find(pathname: string): HttpHandler | undefined {
    return this.routes.find(({ prefix }) => pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`))
      ?.handler;
  }
}
