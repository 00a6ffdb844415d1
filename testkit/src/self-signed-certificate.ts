// A certificate for 127.0.0.1 signed by itself, as games serve their local HTTPS APIs with: made by
// the openssl command into `folder`, for a stand-in game's HTTPS server.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Certificate {
  /** PEM texts, as `https.createServer` takes them. */
  key: string;
  cert: string;
}

/** Whether the openssl command, which makes the certificate, can run here. */
export async function canMakeCertificates(): Promise<boolean> {
  return run('openssl', ['version']).then(
    () => true,
    () => false,
  );
}

export async function selfSignedCertificate(folder: string): Promise<Certificate> {
  const key = path.join(folder, 'key.pem');
  const cert = path.join(folder, 'cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
}
