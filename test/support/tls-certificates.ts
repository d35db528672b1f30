/**
 * A throwaway certificate authority and server certificates for tests, made by the `openssl` command line
 * (Node can use certificates but not issue them). Made fresh for each run in a temporary folder, valid for two
 * days: nothing secret is kept in the repository. P-256 keys, so making them takes milliseconds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type TestCertificates = {
  /** The authority's certificate (PEM), to trust in the client. */
  ca: string;
  /** A server key and certificate (PEM) issued by the authority for each name asked for. */
  servers: Record<string, { key: string; cert: string }>;
};

export function makeCertificates(names: readonly string[]): TestCertificates {
  const folder = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
  const file = (name: string) => join(folder, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    openssl(
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Webhook test CA',
    );
    const servers: TestCertificates['servers'] = {};
    for (const [index, name] of names.entries()) {
      openssl('req', ...newKey, '-keyout', `${index}.key`, '-out', `${index}.csr`, '-subj', `/CN=${name}`);
      writeFileSync(file(`${index}.ext`), `subjectAltName=DNS:${name}\n`);
      openssl(
        'x509',
        '-req',
        '-in',
        `${index}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '2',
        '-extfile',
        `${index}.ext`,
        '-out',
        `${index}.pem`,
      );
      servers[name] = {
        key: readFileSync(file(`${index}.key`), 'utf8'),
        cert: readFileSync(file(`${index}.pem`), 'utf8'),
      };
    }
    return { ca: readFileSync(file('ca.pem'), 'utf8'), servers };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
