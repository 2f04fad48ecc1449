import { parseCookie } from 'cookie';
import { credentialPlace, sandboxCredential } from '@portico/contracts/catalog';
import type { FastifyRequest } from 'fastify';
import type { CompiledApi, MatchedOperation } from './compiled-api.ts';
import type { SecurityScheme } from '../openapi/document.ts';

/**
 * How the sandbox reads each security scheme of a document (decision 016): every scheme maps to
 * the credentials an application already has, so the calls the documentation page and its code
 * samples show work as written.
 *
 * - `apiKey` (header, query or cookie, under the scheme's `name`): the application's client id.
 * - `http` `basic`: client id and client secret (checked against the stored, sealed secret).
 * - `http` `bearer` (and any other `http` scheme), `oauth2`, `openIdConnect`, `mutualTLS`, or a
 *   scheme the document does not define: an access token of the authorization server.
 */
export type CredentialKind = 'apiKey' | 'basic' | 'token';

export interface SchemeNeed {
  name: string;
  kind: CredentialKind;
  /** apiKey only: where the key goes and under which name. */
  location?: 'header' | 'query' | 'cookie';
  keyName?: string;
  scopes: string[];
}

export function credentialKind(scheme: SecurityScheme | undefined): CredentialKind {
  // The rule the documentation page shows, from the contracts; an API key without a name has
  // nowhere to be read from, so it falls back to a token.
  switch (sandboxCredential(scheme ?? {})) {
    case 'clientId':
      return typeof scheme?.name === 'string' && scheme.name ? 'apiKey' : 'token';
    case 'clientIdAndSecret':
      return 'basic';
    case 'accessToken':
      return 'token';
  }
}

/**
 * What an operation needs: one list per alternative security requirement (all of its schemes at
 * once), or undefined when it needs nothing (`security: []` or an empty alternative `{}`).
 */
export function operationNeeds(api: CompiledApi, match: MatchedOperation): SchemeNeed[][] | undefined {
  if (!match.security.length) return undefined;
  if (match.security.some((r) => Object.keys(r).length === 0)) return undefined;
  return match.security.flatMap((requirement) =>
    eachSendable(
      Object.entries(requirement).map(([name, scopes]): SchemeNeed => {
        const scheme = api.scheme(name);
        const kind = credentialKind(scheme);
        // Only OAuth 2 and OpenID Connect requirements list scopes (3.1's roles of other schemes
        // have no counterpart in the sandbox).
        const type = scheme?.type;
        const scoped = type === 'oauth2' || type === 'openIdConnect' || type === undefined;
        const listed = scoped && Array.isArray(scopes) ? scopes.filter((s) => typeof s === 'string') : [];
        if (kind === 'apiKey') {
          const location = scheme?.in === 'query' || scheme?.in === 'cookie' ? scheme.in : 'header';
          return { name, kind, location, keyName: scheme!.name!, scopes: listed };
        }
        return { name, kind, scopes: listed };
      }),
    ),
  );
}

/** Where a need's credential is read from (contracts' credentialPlace). */
function place(need: SchemeNeed): string {
  return need.kind === 'apiKey'
    ? credentialPlace({ type: 'apiKey', in: need.location, name: need.keyName })
    : 'header:authorization';
}

/**
 * A requirement as requests can meet it: schemes read from one place as different credentials
 * (Azure Container Registry's HTTP Basic beside an API key named `Authorization`) cannot all be
 * sent, so it becomes one alternative per choice among them, with the rest of its schemes.
 * Schemes read the same way in one place (Google's implicit and authorization-code OAuth 2 in every
 * requirement) are met by one credential together, with all of their scopes.
 */
function eachSendable(needs: SchemeNeed[]): SchemeNeed[][] {
  const byPlace = new Map<string, Map<CredentialKind, SchemeNeed[]>>();
  for (const need of needs) {
    const kinds = byPlace.get(place(need)) ?? new Map<CredentialKind, SchemeNeed[]>();
    kinds.set(need.kind, [...(kinds.get(need.kind) ?? []), need]);
    byPlace.set(place(need), kinds);
  }
  let alternatives: SchemeNeed[][] = [[]];
  for (const kinds of byPlace.values())
    alternatives = alternatives.flatMap((chosen) => [...kinds.values()].map((same) => [...chosen, ...same]));
  return alternatives;
}

/** A credential read from the request, before the client is looked up. */
export type Presented = { ok: true; clientId: string; secret?: string } | { ok: false; description: string };

/** The bearer token of the Authorization header: undefined when absent, null when malformed. */
export function bearerToken(request: FastifyRequest): string | undefined | null {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/** Reads the credential a scheme asks for from the request (not yet checked). */
export function presented(
  request: FastifyRequest,
  need: SchemeNeed & { kind: 'apiKey' | 'basic' },
  query: URLSearchParams,
): Presented {
  switch (need.kind) {
    case 'apiKey': {
      const name = need.keyName!;
      let value: string | undefined;
      if (need.location === 'query') value = query.get(name) ?? undefined;
      // Parsed here, only for a scheme that asks for a cookie: the sandbox's instance runs none of
      // the portal's cookie handling (decision 075). The `cookie` package, as @fastify/cookie.
      else if (need.location === 'cookie') value = parseCookie(request.headers.cookie ?? '')[name];
      else {
        const h = request.headers[name.toLowerCase()];
        value = Array.isArray(h) ? h[0] : h;
      }
      value = value?.trim();
      if (!value) {
        return {
          ok: false,
          description: `an API key is required in the ${need.location} ${need.location === 'header' ? 'field' : 'parameter'} '${name}': use the client id of an application subscribed to this API`,
        };
      }
      return { ok: true, clientId: value };
    }
    case 'basic': {
      const header = request.headers.authorization ?? '';
      const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
      const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
      const colon = decoded.indexOf(':');
      if (colon <= 0) {
        return {
          ok: false,
          description:
            'HTTP Basic credentials are required: "Authorization: Basic base64(<client id>:<client secret>)" of an application subscribed to this API',
        };
      }
      return { ok: true, clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
    }
  }
}
