import { Alert, Code, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { tokenEndpointUrl } from './api';

/**
 * Why the console cannot get a token for an application that authenticates with a signed JWT or
 * mutual TLS (issue 28): the key or certificate is the TPP's, never in this browser. A FAPI 2.0
 * application gets the profile's flow as an example (PAR, PKCE S256, DPoP), step by step.
 */
export function KeyAuthNotice({
  method,
  fapi,
  clientId,
  scopes,
}: {
  method: string;
  fapi: boolean;
  clientId: string;
  scopes: readonly string[];
}) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" role="status" data-testid="tryout-key-auth">
      <Stack gap="xs">
        <Text size="sm">{fapi ? t('tryout.fapiNoToken') : t('tryout.keyAuthNoToken', { method })}</Text>
        {fapi && (
          <>
            <Text size="sm" fw={600}>
              {t('tryout.fapiExampleTitle')}
            </Text>
            <Code
              block
              data-testid="tryout-fapi-example"
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
            >
              {fapiExample(method, clientId, scopes)}
            </Code>
          </>
        )}
      </Stack>
    </Alert>
  );
}

/** The FAPI 2.0 flow with curl, for the application's method (signed JWT or mutual TLS). */
export function fapiExample(method: string, clientId: string, scopes: readonly string[]): string {
  const token = tokenEndpointUrl();
  const issuer = token.replace(/\/token$/, '');
  const mtls = method === 'tls_client_auth' || method === 'self_signed_tls_client_auth';
  // mTLS: the certificate authenticates (at the mutual-TLS port's endpoints, discovery's
  // mtls_endpoint_aliases); a signed JWT: a new client assertion (aud = the issuer) per request.
  const auth = mtls
    ? ['  --cert client.pem --key client-key.pem \\', `  -d client_id=${clientId} \\`]
    : [
        `  -d client_id=${clientId} \\`,
        '  -d client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer \\',
        '  -d client_assertion="$CLIENT_ASSERTION" \\',
      ];
  const at = (url: string) => (mtls ? `"$MTLS_BASE${new URL(url).pathname}"` : url);
  return [
    '# PKCE: CODE_VERIFIER is 32 random bytes, base64url; CODE_CHALLENGE = base64url(SHA-256(CODE_VERIFIER))',
    mtls
      ? '# MTLS_BASE: the mutual-TLS port (discovery: mtls_endpoint_aliases)'
      : `# CLIENT_ASSERTION: a JWT signed with your key (iss = sub = ${clientId}, aud = ${issuer}, jti, exp)`,
    '# 1. Push the authorization request (RFC 9126)',
    `curl -X POST ${at(`${issuer}/request`)} \\`,
    ...auth,
    '  -d response_type=code -d redirect_uri="$REDIRECT_URI" -d state="$STATE" \\',
    ...(scopes.length ? [`  -d scope='${scopes.join(' ')}' \\`] : []),
    '  -d code_challenge="$CODE_CHALLENGE" -d code_challenge_method=S256',
    '# -> {"request_uri":"urn:ietf:params:oauth:request_uri:...","expires_in":60}',
    '# 2. Send the customer to the authorization endpoint; the code comes back to REDIRECT_URI (with iss)',
    `#    ${issuer}/auth?client_id=${clientId}&request_uri=$REQUEST_URI`,
    '# 3. Exchange the code, with a DPoP proof of your key (RFC 9449: htm POST, htu the token endpoint)',
    `curl -X POST ${at(token)} -H "DPoP: $DPOP_PROOF" \\`,
    ...auth,
    '  -d grant_type=authorization_code -d code="$CODE" -d redirect_uri="$REDIRECT_URI" \\',
    '  -d code_verifier="$CODE_VERIFIER"',
    '# -> {"access_token":"...","token_type":"DPoP",...}',
    '# 4. Call the sandbox: Authorization: DPoP $ACCESS_TOKEN, and a new proof with ath for each call',
  ].join('\n');
}
