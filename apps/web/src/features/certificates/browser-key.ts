// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { Name, Pkcs10CertificateRequestGenerator, PemConverter } from '@peculiar/x509';

/**
 * A key pair made by this browser (WebCrypto, ECDSA P-256) and a PKCS #10 request for it: only the
 * request goes to the portal; the private key is offered to the user as a PKCS #8 PEM download and
 * never leaves the page otherwise. Loaded on demand (its own chunk).
 */
export async function generateKeyAndCsr(
  commonName: string,
  organization: string,
): Promise<{ csr: string; privateKeyPem: string }> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  const keys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const name = new Name([{ CN: [commonName] }, { O: [organization] }]);
  const csr = await Pkcs10CertificateRequestGenerator.create({
    name,
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
  });
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { csr: csr.toString('pem'), privateKeyPem: PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}
