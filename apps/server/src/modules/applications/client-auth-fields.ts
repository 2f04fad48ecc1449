import { CLIENT_AUTH_ATTRIBUTES } from '@portico/contracts/client-auth';
import {
  ClientAuthInputError,
  fromRow,
  parseClientAuthentication,
  type ClientAuthentication,
} from '../../authz-server/client-auth.ts';
import type { Config } from '../../config.ts';
import type { ClientView } from './views.ts';
import { ApiErrors } from '../../jsonapi/errors.ts';

/**
 * The application document's client authentication attributes (issue 28, decision 049): checked
 * before anything is written, every problem a 422 entry pointing at its attribute.
 */
export const CLIENT_AUTH_KEYS: readonly string[] = Object.values(CLIENT_AUTH_ATTRIBUTES);

/**
 * The method the document asks for; undefined when it names none of the attributes (create:
 * client secret; edit: unchanged). Attributes left out count as empty.
 */
export function clientAuthFromDocument(
  body: unknown,
  nodeEnv: Config['nodeEnv'],
): ClientAuthentication | undefined {
  const attrs =
    (body as { data?: { attributes?: Record<string, unknown> } } | null | undefined)?.data?.attributes ?? {};
  if (!CLIENT_AUTH_KEYS.some((k) => attrs[k] !== undefined)) return undefined;
  try {
    return parseClientAuthentication(
      {
        method: attrs[CLIENT_AUTH_ATTRIBUTES.method],
        jwks: attrs[CLIENT_AUTH_ATTRIBUTES.jwks],
        jwksUri: attrs[CLIENT_AUTH_ATTRIBUTES.jwksUri],
        tlsSubjectDn: attrs[CLIENT_AUTH_ATTRIBUTES.tlsSubjectDn],
      },
      nodeEnv,
    );
  } catch (err) {
    if (err instanceof ClientAuthInputError)
      throw new ApiErrors(
        422,
        err.problems.map((p) => ({
          title: p.title,
          pointer: `/data/attributes/${CLIENT_AUTH_ATTRIBUTES[p.field === 'method' ? 'method' : p.field]}`,
        })),
      );
    throw err;
  }
}

/** The method of the application's development client (the one the form edits), as stored. */
export function clientAuthOfClients(clients: readonly ClientView[]): ClientAuthentication | undefined {
  const client = clients.find((c) => c.environment === 'DEVELOPMENT') ?? clients[0];
  return client?.auth;
}

export { fromRow as clientAuthFromRow };
