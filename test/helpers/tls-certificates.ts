/**
 * Certificates made at test time with the openssl CLI: a throwaway CA and server certificates for 127.0.0.1 /
 * localhost signed by it (P-256, valid two days). Clients trust the CA (`ca.pem`); nothing is installed anywhere.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';

export interface ServerCertificate {
  readonly certFile: string;
  readonly keyFile: string;
  /** SHA-256 fingerprint as Node's TLS peer certificate reports it (AA:BB:…). */
  readonly fingerprint256: string;
}

const CONFIG = `[req]
distinguished_name = dn
prompt = no
[dn]
CN = Outpoint test
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign
[server]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
`;

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Writes `ca.pem` (and its key) into `dir`; returns the CA file. */
export function makeCa(dir: string): string {
  writeFileSync(join(dir, 'openssl.cnf'), CONFIG);
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-config', 'openssl.cnf', '-extensions', 'ca']);
  return join(dir, 'ca.pem');
}

/** A server certificate `name.pem` / `name.key` signed by the CA of makeCa(dir). */
export function makeServerCertificate(dir: string, name: string, serial: number): ServerCertificate {
  openssl(dir, ['req', '-new', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-config', 'openssl.cnf']);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', String(serial), '-out', `${name}.pem`,
    '-days', '2', '-extfile', 'openssl.cnf', '-extensions', 'server']);
  const certFile = join(dir, `${name}.pem`);
  return { certFile, keyFile: join(dir, `${name}.key`), fingerprint256: new X509Certificate(readFileSync(certFile)).fingerprint256 };
}
