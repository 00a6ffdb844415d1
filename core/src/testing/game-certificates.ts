// A certificate authority of a game's own (like Riot's for the League client) and a
// server certificate it signed for 127.0.0.1 and the name `rclient`, made by the openssl command.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface GameCertificates {
  /** The authority's certificate (PEM): what a feed's `ca` takes. */
  ca: string;
  /** The server's key and certificate (PEM), as `https.createServer` takes them. */
  key: string;
  cert: string;
}

/** The certificates, or undefined when openssl cannot make them here (the tests that need them skip). */
export async function gameCertificates(): Promise<GameCertificates | undefined> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'keyframe-test-ca-'));
  const file = (name: string) => path.join(folder, name);
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    await run('openssl', [
      'req',
      '-x509',
      ...newKey,
      '-days',
      '1',
      '-subj',
      '/CN=Test Game Root CA',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
    ]);
    await run('openssl', ['req', ...newKey, '-subj', '/CN=127.0.0.1', '-keyout', file('server.key'), '-out', file('server.csr')]);
    await writeFile(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:rclient\n');
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.pem'),
    ]);
    const [ca, key, cert] = await Promise.all(['ca.pem', 'server.key', 'server.pem'].map((name) => readFile(file(name), 'utf8')));
    return { ca: ca!, key: key!, cert: cert! };
  } catch (error) {
    console.warn(`      skipped: openssl could not make test certificates (${(error as Error).message})`);
    return undefined;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
