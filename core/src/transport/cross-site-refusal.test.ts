import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { crossSiteRefusal } from './cross-site-refusal.js';

const own = (origin: string) => origin === 'http://127.0.0.1:8080' || origin === 'http://localhost:5173';
const refusal = (headers: IncomingMessage['headers']) => crossSiteRefusal({ headers } as IncomingMessage, own);

describe('cross-site media requests', () => {
  it('serves requests without browser headers, and pages of allowed origins', () => {
    expect(refusal({})).to.equal(undefined);
    expect(refusal({ 'sec-fetch-site': 'same-origin', referer: 'http://127.0.0.1:8080/#/video/x' })).to.equal(undefined);
    expect(refusal({ 'sec-fetch-site': 'none' })).to.equal(undefined);
    expect(refusal({ 'sec-fetch-site': 'same-site', referer: 'http://localhost:5173/' })).to.equal(undefined);
    expect(refusal({ 'sec-fetch-site': 'same-site', origin: 'http://localhost:5173' })).to.equal(undefined);
  });

  it('refuses other sites, other ports of the same site, and pages that hide where they are', () => {
    expect(refusal({ 'sec-fetch-site': 'cross-site' })).to.match(/cross-site/);
    expect(refusal({ 'sec-fetch-site': 'same-site' })).to.match(/same-site/);
    expect(refusal({ 'sec-fetch-site': 'same-site', referer: 'http://127.0.0.1:9999/page.html' })).to.match(/127\.0\.0\.1:9999/);
    expect(refusal({ referer: 'https://evil.example/a' })).to.match(/evil\.example/);
    expect(refusal({ origin: 'null' })).to.match(/null/);
    expect(refusal({ referer: 'not a url' })).to.match(/null/);
    // The Origin, when sent, is what counts.
    expect(refusal({ origin: 'http://evil.example', referer: 'http://127.0.0.1:8080/' })).to.match(/evil/);
  });
});
