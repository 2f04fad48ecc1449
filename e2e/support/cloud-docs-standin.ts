/**
 * A small stand-in for Google's OAuth 2 authorization endpoint and the Drive API's export call,
 * speaking the same HTTP API, so that the cloud document viewer (modules/content/README.md) is
 * tested end to end without the network. e2e/start-portal.ts starts it and points the portal's
 * CLOUD_DOCS_* variables at it.
 */
import http from 'node:http';

export const STANDIN_CLIENT_ID = 'portico-e2e';
export const STANDIN_TOKEN = 'standin-access-token';
const SCOPES = [
  'https://www.googleapis.com/auth/drive.file',
  'https://www.googleapis.com/auth/drive.readonly',
];

/** The documents the stand-in knows, by id. */
export const STANDIN_DOCUMENTS: Record<string, { title: string; html: string }> = {
  'quarterly-report': {
    title: 'Quarterly API report',
    html: '<html><head><title>Quarterly API report</title></head><body><h1>Quarterly API report</h1><p>Calls to the Payments API grew by 38% this quarter.</p><script>alert(1)</script></body></html>',
  },
  'api-guidelines-2026': {
    title: 'API design guidelines',
    html: '<html><body><h2>API design guidelines</h2><p>Use nouns for resources and keep versions in the path.</p></body></html>',
  },
};

function driveError(res: http.ServerResponse, code: number, message: string, reason: string) {
  res.writeHead(code, {
    'content-type': 'application/json; charset=UTF-8',
    'access-control-allow-origin': '*',
  });
  res.end(JSON.stringify({ error: { code, message, errors: [{ message, domain: 'global', reason }] } }));
}

export async function startCloudDocsStandIn(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': 'authorization',
        'access-control-allow-methods': 'GET',
      });
      res.end();
      return;
    }
    if (url.pathname === '/o/oauth2/v2/auth') {
      const redirect = url.searchParams.get('redirect_uri') ?? '';
      const state = url.searchParams.get('state') ?? '';
      const scopes = (url.searchParams.get('scope') ?? '').split(' ');
      const fragment = new URLSearchParams({ state });
      if (url.searchParams.get('client_id') !== STANDIN_CLIENT_ID) fragment.set('error', 'invalid_client');
      else if (url.searchParams.get('response_type') !== 'token')
        fragment.set('error', 'unsupported_response_type');
      else if (!SCOPES.every((s) => scopes.includes(s))) fragment.set('error', 'invalid_scope');
      else {
        fragment.set('access_token', STANDIN_TOKEN);
        fragment.set('token_type', 'Bearer');
        fragment.set('expires_in', '3599');
        fragment.set('scope', SCOPES.join(' '));
      }
      res.writeHead(302, { location: `${redirect}#${fragment}` });
      res.end();
      return;
    }
    const exportMatch = /^\/drive\/v3\/files\/([^/]+)\/export$/.exec(url.pathname);
    if (exportMatch) {
      if (req.headers.authorization !== `Bearer ${STANDIN_TOKEN}`) {
        return driveError(
          res,
          401,
          'Request had invalid authentication credentials. Expected OAuth 2 access token.',
          'authError',
        );
      }
      if (url.searchParams.get('mimeType') !== 'text/html') {
        return driveError(res, 400, 'The requested conversion is not supported.', 'badRequest');
      }
      const id = decodeURIComponent(exportMatch[1]!);
      const doc = STANDIN_DOCUMENTS[id];
      if (!doc) return driveError(res, 404, `File not found: ${id}.`, 'notFound');
      res.writeHead(200, { 'content-type': 'text/html', 'access-control-allow-origin': '*' });
      res.end(doc.html);
      return;
    }
    const pdfMatch = /^\/document\/d\/([^/]+)\/export$/.exec(url.pathname);
    if (pdfMatch && url.searchParams.get('format') === 'pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.4\n%stand-in\n');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
