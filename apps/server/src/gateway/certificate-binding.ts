import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { peerCertificate } from '../authz-server/client-auth.ts';
import type { Config } from '../config.ts';

/**
 * Certificate-bound access tokens (RFC 8705 section 3, decision 049): a token whose `cnf` names a
 * certificate (`x5t#S256`, the SHA-256 thumbprint of its DER) is only good on a request that
 * presents that certificate, over the mutual-TLS port or (TRUST_PROXY only) in the proxy's header.
 * Returns why the token is refused, or null.
 */
export function certificateBindingRefusal(
  thumbprint: string | undefined,
  request: FastifyRequest,
  config: Pick<Config, 'trustProxy' | 'mtls'>,
): string | null {
  if (thumbprint === undefined) return null;
  const presented = peerCertificate(request.raw, config);
  if (!presented)
    return 'the access token is bound to a client certificate (cnf x5t#S256): present that certificate over mutual TLS';
  const actual = createHash('sha256').update(presented.certificate.raw).digest('base64url');
  if (actual !== thumbprint)
    return 'the access token is bound to another client certificate than the one presented (cnf x5t#S256 does not match)';
  return null;
}

/** The `x5t#S256` of a token's `cnf` claim, or undefined (a token that is not certificate-bound). */
export function boundThumbprint(cnf: unknown): string | undefined {
  if (!cnf || typeof cnf !== 'object') return undefined;
  const value = (cnf as Record<string, unknown>)['x5t#S256'];
  return typeof value === 'string' ? value : undefined;
}
