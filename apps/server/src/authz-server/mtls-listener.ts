import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import { isSandboxCall } from '../gateway/routes.ts';
import { selfSignedCertificate } from '../lib/self-signed-certificate.ts';

/** The paths the mutual-TLS port serves: the token endpoint (and its siblings) and the sandbox. */
export function servedOverMtls(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path === '/oauth/token' || path.startsWith('/oauth/token/') || path.startsWith('/sandbox/');
}

/**
 * The mutual-TLS port (SANDBOX_MTLS_PORT, issue 28, decisions 049 and 053): HTTPS that asks every
 * client for a certificate without requiring one at the TLS level (the token endpoint and the
 * gateway decide what a missing or unknown certificate means), serving /oauth/token and /sandbox/*
 * of the same app. It trusts the portal's sandbox CA and MTLS_CLIENT_CA's certificates: a chain
 * to one of them makes a certificate verified (what tls_client_auth needs). The server certificate comes from MTLS_SERVER_CERT/MTLS_SERVER_KEY, or is generated
 * at start (self-signed, for PUBLIC_URL's host, localhost and 127.0.0.1).
 */
export default fp(
  async (app) => {
    const mtls = app.config.mtls;
    if (mtls?.certHeader && !app.config.trustProxy)
      app.log.warn('MTLS_CERT_HEADER is ignored: it is honoured only with TRUST_PROXY=true');
    if (mtls?.port === undefined) return;
    // An IPv6 literal ('[::1]') is no DNS name: the certificate names the others only.
    const host = new URL(app.config.publicUrl).hostname;
    const names = [host, 'localhost', '127.0.0.1'].filter((n) => !n.startsWith('['));
    const generated =
      mtls.serverCertFile && mtls.serverKeyFile
        ? undefined
        : await selfSignedCertificate({
            subject: [['CN', names[0] ?? 'localhost']],
            altNames: [...new Set(names)],
          });
    const identity = {
      cert: generated?.cert ?? fs.readFileSync(mtls.serverCertFile ?? ''),
      key: generated?.key ?? fs.readFileSync(mtls.serverKeyFile ?? ''),
    };
    const extraCas = mtls.clientCaFile ? [fs.readFileSync(mtls.clientCaFile, 'utf8')] : [];
    const server = https.createServer(
      {
        ...identity,
        ...(extraCas.length ? { ca: extraCas } : {}),
        requestCert: true,
        rejectUnauthorized: false,
        minVersion: 'TLSv1.2',
      },
      (req, res) => {
        if (servedOverMtls(req.url)) {
          // The sandbox answers in an instance of its own (decision 075), as on the portal's port.
          (isSandboxCall(req.url) ? app.sandboxApp : app).routing(req, res);
          return;
        }
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: 'not_found',
            error_description: 'this port serves only /oauth/token and /sandbox/*',
          }),
        );
      },
    );
    app.decorate('mtlsServer', { server, serverCertificate: generated?.cert });
    app.addHook('onListen', async () => {
      // The trusted CAs are known once every plugin has started: the sandbox CA (certificates
      // module, certificate-trust.ts), then MTLS_CLIENT_CA's.
      const ca = [...app.certificateTrust.caCertificates(), ...extraCas];
      if (ca.length) server.setSecureContext({ ...identity, ca, minVersion: 'TLSv1.2' });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(mtls.port, app.config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const { port } = server.address() as AddressInfo;
      app.log.info(`mutual TLS (token endpoint and sandbox) at https://${app.config.host}:${port}`);
    });
    app.addHook('onClose', async () => {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  },
  { name: 'mtls-listener', dependencies: ['authz-server', 'gateway'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The mutual-TLS server when SANDBOX_MTLS_PORT is set, with its generated certificate (PEM). */
    mtlsServer?: { server: https.Server; serverCertificate: string | undefined };
  }
}
