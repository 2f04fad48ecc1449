/**
 * FROZEN (decision 044): a copy, for migration 0110-bundled-documents only, of apps/server/src/openapi/public-urls.ts as it was
 * when the migration was frozen (commit 78cc827), less what the migration does not use. Never edit it, whatever the library becomes: a
 * migration that ran must do the same on every database that has not run it yet. It imports only
 * packages and the files of this folder.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function sandboxUrl(publicUrl: string, alias: string): string {
  return `${publicUrl}/sandbox/${encodeURIComponent(alias)}`;
}

/**
 * Points a converted document at this portal: its only server is the sandbox of the API, and its
 * OAuth 2 / OpenID Connect schemes use the portal's authorization server (../../authz-server).
 * Returns a new top-level object; shared parts of the document are copied where they change, so a
 * cached document can be re-pointed cheaply for another public URL.
 */
export function withPublicUrls<T extends Obj>(doc: T, publicUrl: string, alias: string): T {
  const out: Obj = { ...doc, servers: [{ url: sandboxUrl(publicUrl, alias), description: 'Sandbox' }] };
  const components = doc.components;
  const schemes = isObj(components) ? components.securitySchemes : undefined;
  if (isObj(components) && isObj(schemes)) {
    const rewritten: Obj = {};
    for (const [name, scheme] of Object.entries(schemes)) {
      rewritten[name] = isObj(scheme) ? rewriteScheme(scheme, publicUrl) : scheme;
    }
    out.components = { ...components, securitySchemes: rewritten };
  }
  // Operations or path items with their own servers would bypass the sandbox.
  if (isObj(doc.paths) && hasNestedServers(doc.paths)) {
    const paths: Obj = {};
    for (const [p, item] of Object.entries(doc.paths)) {
      if (!isObj(item)) {
        paths[p] = item;
        continue;
      }
      const copy: Obj = { ...item };
      delete copy.servers;
      for (const [k, op] of Object.entries(copy)) {
        if (isObj(op) && 'servers' in op) {
          const { servers: _servers, ...rest } = op;
          copy[k] = rest;
        }
      }
      paths[p] = copy;
    }
    out.paths = paths;
  }
  return out as T;
}

function hasNestedServers(paths: Obj): boolean {
  return Object.values(paths).some(
    (item) =>
      isObj(item) && ('servers' in item || Object.values(item).some((op) => isObj(op) && 'servers' in op)),
  );
}

function rewriteScheme(scheme: Obj, publicUrl: string): Obj {
  if (scheme.type === 'openIdConnect') {
    return { ...scheme, openIdConnectUrl: `${publicUrl}/oauth/.well-known/openid-configuration` };
  }
  if (scheme.type !== 'oauth2' || !isObj(scheme.flows)) return scheme;
  const flows: Obj = {};
  for (const [name, flow] of Object.entries(scheme.flows)) {
    if (!isObj(flow)) continue;
    const f: Obj = { ...flow };
    if ('authorizationUrl' in f || name === 'implicit' || name === 'authorizationCode') {
      f.authorizationUrl = `${publicUrl}/oauth/auth`;
    }
    if ('tokenUrl' in f || name !== 'implicit') f.tokenUrl = `${publicUrl}/oauth/token`;
    if ('refreshUrl' in f) f.refreshUrl = `${publicUrl}/oauth/token`;
    if (name === 'implicit') delete f.tokenUrl;
    flows[name] = f;
  }
  return { ...scheme, flows };
}
