import {
  credentialPlace,
  parameterInPlace,
  sandboxCredential,
  type OperationDetail,
  type SecurityRequirementDetail,
  type SecuritySchemeSummary,
} from '@portico/contracts/catalog';
import type { Credentials, HeldToken } from './token-panel';

/** A scheme of the operation's first security requirement, with its details from the index. */
export interface RequiredScheme {
  requirement: SecurityRequirementDetail[number];
  scheme: SecuritySchemeSummary | undefined;
}

/** What the try-out adds to a request for the sandbox to take the application's credentials. */
export interface CredentialOptions {
  extraHeaders: [string, string][];
  extraQuery: Record<string, string>;
  extraCookies: [string, string][];
  authorization: string | null;
  /** Where credentials go (contracts' credentialPlace): parameters there are not asked for. */
  places: string[];
}

/**
 * The credentials of each scheme as the sandbox reads them (decision 016): the client id as API
 * key, client id and secret for Basic, the applied token otherwise. The first scheme of a place
 * wins: two cannot be sent in one header (Azure Container Registry's Basic beside an API key named
 * Authorization), and the sandbox takes either.
 */
export function credentialOptions(
  schemes: RequiredScheme[],
  credentials: Credentials | null,
  token: HeldToken | null,
): CredentialOptions {
  const options: CredentialOptions = {
    extraHeaders: [],
    extraQuery: {},
    extraCookies: [],
    authorization: null,
    places: [],
  };
  for (const { requirement, scheme } of schemes) {
    const kind = sandboxCredential(scheme ?? requirement);
    const place = credentialPlace({ ...(scheme ?? requirement), name: scheme?.paramName });
    if (options.places.includes(place)) continue;
    let sent = true;
    if (kind === 'clientId' && credentials && scheme?.paramName && scheme.in === 'query')
      options.extraQuery[scheme.paramName] = credentials.clientId;
    else if (kind === 'clientId' && credentials && scheme?.paramName && scheme.in === 'header')
      options.extraHeaders.push([scheme.paramName, credentials.clientId]);
    else if (kind === 'clientId' && credentials && scheme?.paramName && scheme.in === 'cookie')
      options.extraCookies.push([scheme.paramName, credentials.clientId]);
    else if (kind === 'clientIdAndSecret' && credentials)
      options.authorization = `Basic ${btoa(`${credentials.clientId}:${credentials.secret}`)}`;
    else if (kind === 'accessToken' && token)
      options.authorization = `${token.tokenType} ${token.accessToken}`;
    else sent = false;
    if (sent) options.places.push(place);
  }
  return options;
}

/**
 * The operation less the parameters a credential stands for (an API key also declared as a query
 * parameter, spinbot.net's `key`): they are neither asked for nor sent twice.
 */
export function withoutCredentialParameters<T extends Pick<OperationDetail, 'parameters'>>(
  op: T,
  places: string[],
): T {
  if (places.length === 0) return op;
  return {
    ...op,
    parameters: op.parameters.filter((p) => !places.some((place) => parameterInPlace(p, place))),
  };
}
