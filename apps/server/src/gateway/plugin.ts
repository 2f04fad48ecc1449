import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientAccess } from '../authz-server/clients.ts';
import type { CompiledApi, MatchedOperation } from './compiled-api.ts';
import { operationNeeds, presented, type SchemeNeed } from './credentials.ts';
import { createDocumentCache } from './documents.ts';
import { createDpopChecker, dpopChallenge, DpopError, presentedToken, type PresentedToken } from './dpop.ts';
import { mockResponseInTurns, serializeBody } from './mock.ts';
import { acceptedEncoding, compressible, encodeAnswer, type AnswerEncoding } from '../lib/answer-encoding.ts';
import { mergeVary } from '../plugins/http-cache.ts';
import { createCallRecorder, type CallRecorder } from './recorder.ts';
import { peerCertificate } from '../authz-server/client-auth.ts';
import { certificateBindingRefusal } from './certificate-binding.ts';
import { createTokenVerifier, TokenError, type VerifiedToken } from './tokens.ts';

export const SANDBOX_PREFIX = '/sandbox';

/** Who called, for the call record (set once the token is known). */
interface CallContext {
  alias: string;
  endpoint: string;
  method: string;
  clientId: string;
  applicationUuid: string | null;
  environment: string;
}

/** An operation's documented answer, serialized (kept per operation: documentedAnswer). */
interface DocumentedAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  contentType: string | undefined;
  payload: string | undefined;
  /** Sent compressed to a client that accepts it (lib/answer-encoding.ts). */
  compressible: boolean;
  /** Its compressed forms, each made on the first call that asks for it. */
  encoded: Map<AnswerEncoding, Promise<Buffer>>;
}
/** Answers longer than this (characters) are worked out on every call rather than kept. */
const ANSWER_KEPT_CHARS = 64 * 1024;
const ANSWERS_PER_OPERATION = 16;

interface OAuthErrorBody {
  error: string;
  error_description: string;
  [extra: string]: unknown;
}

const quote = (v: string) => v.replace(/["\\]/g, '');

function sendError(reply: FastifyReply, status: number, body: OAuthErrorBody, dpop = false): FastifyReply {
  // Refusals of DPoP (gateway/dpop.ts) challenge with the DPoP scheme.
  if (dpop) reply.header('WWW-Authenticate', dpopChallenge(body.error, body.error_description));
  else if (status === 401 || (status === 403 && body.error === 'insufficient_scope')) {
    const parts = [
      `realm="sandbox"`,
      `error="${body.error}"`,
      `error_description="${quote(body.error_description)}"`,
    ];
    if (typeof body.scope === 'string') parts.push(`scope="${quote(body.scope)}"`);
    reply.header('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
  }
  return reply.status(status).header('Cache-Control', 'no-store').type('application/json').send(body);
}

/**
 * The sandbox gateway: every imported API answers under /sandbox/<alias>/... from its OpenAPI
 * document. Per call: find the operation, check the bearer token (signature, issuer, audience,
 * expiry) and the operation's scopes against both the token and the client's current allowed
 * scopes, validate the request, then answer with the documented example. Calls are recorded for
 * analytics in the background.
 */
export default fp(
  async (app) => {
    const documents = createDocumentCache(app.db, app.log);
    const verify = createTokenVerifier({
      issuer: app.oauthServer.issuer,
      audience: app.oauthServer.resource,
      keys: app.oauthServer.publicKeys,
    });
    const dpop = createDpopChecker(app.db, { publicUrl: app.config.publicUrl });
    const recorder = createCallRecorder(app.db, app.log);
    app.decorate('callRecorder', recorder);
    app.decorate('flushCallRecorder', () => recorder.flush());
    app.decorate('sandboxDocuments', documents);
    // Registered after the database plugin: closes (flushes) before the database does.
    app.addHook('onClose', async () => recorder.close());

    const calls = new WeakMap<FastifyRequest, CallContext>();
    const answers = new WeakMap<object, Map<string, DocumentedAnswer>>();
    // Worked out once per compiled operation (a re-import compiles new ones) or per kept access
    // (clientAccess answers the same object while the change counters hold), not per call.
    const needsKept = new WeakMap<object, { needs: SchemeNeed[][] | undefined }>();
    const wantedKept = new WeakMap<SchemeNeed[], string[]>();
    const allowedKept = new WeakMap<ClientAccess, Set<string>>();
    const needsOf = (api: CompiledApi, matched: MatchedOperation) => {
      let kept = needsKept.get(matched.compiled);
      if (!kept) needsKept.set(matched.compiled, (kept = { needs: operationNeeds(api, matched) }));
      return kept.needs;
    };
    const wantedOf = (alternative: SchemeNeed[]) => {
      let wanted = wantedKept.get(alternative);
      if (!wanted) wantedKept.set(alternative, (wanted = alternative.flatMap((n) => n.scopes)));
      return wanted;
    };
    const allowedOf = (access: ClientAccess) => {
      let allowed = allowedKept.get(access);
      if (!allowed) allowedKept.set(access, (allowed = new Set(access.scopes)));
      return allowed;
    };

    type Refusal = { status: 401 | 403; body: OAuthErrorBody; dpop?: boolean };
    const invalid = (error_description: string): Refusal => ({
      status: 401,
      body: { error: 'invalid_token', error_description },
    });
    const tokenRequired = () =>
      invalid(`an access token is required: get one at ${app.oauthServer.issuer}/token`);

    /**
     * The client an access token names, or why it is refused. A DPoP-bound token needs the DPoP
     * scheme and a proof for this request (dpop.ts); checked once per request (a proof is used once).
     */
    async function fromToken(
      request: FastifyRequest,
      raw: PresentedToken,
    ): Promise<Refusal | { clientId: string; scopes: Set<string> }> {
      if (raw === undefined) return tokenRequired();
      if (raw === null)
        return invalid('the Authorization header must be "Bearer <access token>" or "DPoP <access token>"');
      let token: VerifiedToken;
      try {
        token = await verify(raw.token);
      } catch (err) {
        if (err instanceof TokenError) return invalid(err.message);
        throw err;
      }
      // A sandbox customer's revoked consent (authz-server/scripted-customers.ts).
      const refused = await app.oauthServer.tokenRefusal(token);
      if (refused) return invalid(refused);
      // RFC 8705: a certificate-bound token needs its certificate (certificate-binding.ts).
      const unbound = certificateBindingRefusal(token.certificateThumbprint, request, app.config);
      if (unbound) return invalid(unbound);
      // A token bound to a certificate its CA revoked (a sandbox certificate) stops at once.
      if (token.certificateThumbprint !== undefined) {
        const presented = peerCertificate(request.raw, app.config);
        const revoked = presented ? await app.certificateTrust.refusal(presented.certificate) : null;
        if (revoked)
          return invalid(`${revoked}: the access tokens bound to it (cnf x5t#S256) no longer work`);
      }
      if (token.jkt === undefined && raw.scheme === 'DPoP')
        return invalid(
          'this access token is not DPoP-bound: send it as "Authorization: Bearer <access token>"',
        );
      if (token.jkt !== undefined) {
        if (raw.scheme !== 'DPoP') {
          return {
            ...invalid(
              'this access token is DPoP-bound: send it as "Authorization: DPoP <access token>" with a DPoP proof',
            ),
            dpop: true,
          };
        }
        try {
          await dpop.check(request, raw.token, token.jkt);
        } catch (err) {
          if (!(err instanceof DpopError)) throw err;
          return {
            status: 401,
            body: { error: 'invalid_dpop_proof', error_description: err.message },
            dpop: true,
          };
        }
      }
      return { clientId: token.clientId, scopes: token.scopes };
    }

    /**
     * Checks the operation's security (decision 016: each scheme read as the application's
     * credentials, see credentials.ts). The first alternative met wins; otherwise the refusal of
     * the alternative that came closest (a missing scope before a missing credential).
     */
    async function authorize(
      request: FastifyRequest,
      api: CompiledApi,
      matched: MatchedOperation,
      query: URLSearchParams,
      versions: ReadonlyMap<string, string>,
    ): Promise<Refusal | { access: ClientAccess | undefined }> {
      const needs = needsOf(api, matched);
      const raw = presentedToken(request);
      let checked: ReturnType<typeof fromToken> | undefined;
      const tokenOnce = () => (checked ??= fromToken(request, raw));
      if (!needs) {
        // No security: a valid token still names the caller for analytics.
        if (!raw) return { access: undefined };
        const token = await tokenOnce();
        const access =
          'status' in token ? undefined : await app.oauthClients.clientAccess(token.clientId, versions);
        return { access: access?.refused ? undefined : access };
      }
      let refusal: Refusal | undefined;
      for (const alternative of needs) {
        let clientId: string | undefined;
        let tokenScopes: Set<string> | undefined;
        let failed: Refusal | undefined;
        for (const need of alternative) {
          let id: string;
          if (need.kind === 'token') {
            const token = await tokenOnce();
            if ('status' in token) {
              failed = token;
              break;
            }
            id = token.clientId;
            tokenScopes = token.scopes;
          } else {
            const credential = presented(request, { ...need, kind: need.kind }, query);
            if (!credential.ok) {
              failed = invalid(credential.description);
              break;
            }
            if (
              need.kind === 'basic' &&
              !(await app.oauthClients.secretAccepted(credential.clientId, credential.secret!))
            ) {
              failed = invalid('the client id and client secret of the Basic credentials do not match');
              break;
            }
            id = credential.clientId;
          }
          if (clientId !== undefined && clientId !== id) {
            failed = invalid('the credentials of this request name different clients');
            break;
          }
          clientId = id;
        }
        if (failed || clientId === undefined) {
          refusal ??= failed;
          continue;
        }
        const access = await app.oauthClients.clientAccess(clientId, versions);
        if (!access) {
          const apiKeyOnly = alternative.every((n) => n.kind === 'apiKey');
          refusal ??= invalid(
            apiKeyOnly
              ? 'the API key is not the client id of any application'
              : 'the client of these credentials no longer exists',
          );
          continue;
        }
        // The application's creator is blocked (issue 27): its credentials and tokens stop working.
        if (access.refused) {
          refusal ??= invalid(access.refused);
          continue;
        }
        // Scopes: in the client's allowed scopes now (subscriptions) and, for a token, in the token.
        const allowed = allowedOf(access);
        const effective = (s: string) => allowed.has(s) && (!tokenScopes || tokenScopes.has(s));
        const wanted = wantedOf(alternative);
        const missing = wanted.filter((s) => !effective(s));
        if (!missing.length) return { access };
        if (!refusal || refusal.status === 401) {
          refusal = {
            status: 403,
            body: {
              error: 'insufficient_scope',
              error_description: `this operation needs the scope ${missing.map((s) => `'${s}'`).join(' and ')}, which the ${tokenScopes ? 'access token does not grant' : 'application is not granted'} (or the application is no longer subscribed to it)`,
              scope: wanted.join(' '),
            },
          };
        }
      }
      return refusal ?? tokenRequired();
    }

    /** Browser apps of any origin may call the sandbox: bearer tokens, never cookies. */
    const onRequest = (request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Access-Control-Expose-Headers', 'WWW-Authenticate, Request-Id, Allow');
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
        const headers = request.headers['access-control-request-headers'];
        return reply
          .status(204)
          .header('Access-Control-Allow-Methods', 'GET, PUT, POST, DELETE, PATCH, HEAD, OPTIONS')
          .header(
            'Access-Control-Allow-Headers',
            typeof headers === 'string' ? headers : 'Authorization, Content-Type, DPoP',
          )
          .header('Access-Control-Max-Age', '600')
          .send();
      }
      return undefined;
    };

    const onResponse = (request: FastifyRequest, reply: FastifyReply): void => {
      const call = calls.get(request);
      if (!call) return;
      recorder.record({
        occurredAt: new Date(),
        applicationUuid: call.applicationUuid,
        clientId: call.clientId,
        environment: call.environment,
        apiAlias: call.alias,
        endpoint: call.endpoint,
        method: call.method,
        status: reply.statusCode,
        durationMs: reply.elapsedTime,
      });
    };

    /**
     * The documented answer of an operation for the request's Accept and Prefer headers: worked
     * out on its first call and kept with the operation's compiled route (decision 059). It
     * depends only on the document (examples, or values generated from the schemas without
     * randomness) and those headers; a re-import compiles new routes, so the old answers go with
     * their document.
     */
    async function documentedAnswer(
      request: FastifyRequest,
      api: CompiledApi,
      matched: MatchedOperation,
    ): Promise<DocumentedAnswer> {
      const prefer = request.headers.prefer === undefined ? '' : String(request.headers.prefer);
      const accept = request.headers.accept;
      const preferCode = prefer ? /(?:^|[,;\s])code=(\w+)/.exec(prefer)?.[1] : undefined;
      const preferExample = prefer ? /(?:^|[,;\s])example=([\w.-]+)/.exec(prefer)?.[1] : undefined;
      const key = `${accept ?? ''}\n${preferCode ?? ''}\n${preferExample ?? ''}`;
      let kept = answers.get(matched.compiled);
      const hit = kept?.get(key);
      if (hit) return hit;
      const mock = await mockResponseInTurns(matched.operation, api.doc, {
        accept,
        preferCode,
        preferExample,
        check: api.check,
      });
      const payload = serializeBody(mock.contentType, mock.body);
      const answer: DocumentedAnswer = Object.freeze({
        status: mock.status,
        headers: Object.freeze({ ...mock.headers }),
        contentType: mock.contentType,
        payload,
        compressible: payload !== undefined && compressible(mock.contentType ?? '', payload),
        encoded: new Map(),
      });
      if ((answer.payload?.length ?? 0) <= ANSWER_KEPT_CHARS) {
        if (!kept) answers.set(matched.compiled, (kept = new Map()));
        // A few Accept and Prefer variants per operation; a client cycling through more starts over.
        if (kept.size >= ANSWERS_PER_OPERATION) kept.clear();
        kept.set(key, answer);
      }
      return answer;
    }

    const handler = async (
      request: FastifyRequest<{ Params: { alias: string; '*'?: string } }>,
      reply: FastifyReply,
    ) => {
      const { alias } = request.params;
      // The change counters, read once after the request arrived (decision 018): what the
      // alias's document and the client's access are kept in memory against (decision 055).
      const versions = await app.dataVersions.forRequest(request);
      const sandbox = await documents.get(alias, versions);
      if (!sandbox) {
        return sendError(reply, 404, {
          error: 'not_found',
          error_description: `no API with alias '${alias}' in the sandbox`,
        });
      }
      const url = request.raw.url ?? '/';
      const q = url.indexOf('?');
      const fullPath = q === -1 ? url : url.slice(0, q);
      const prefix = `${SANDBOX_PREFIX}/${encodeURIComponent(alias)}`;
      const path = fullPath.startsWith(prefix)
        ? fullPath.slice(prefix.length)
        : `/${request.params['*'] ?? ''}`;
      // Paths told apart by a pseudo-fragment ('/#Action=...') are matched on the query and headers.
      const discriminators = {
        query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
        headers: request.headers,
      };
      const routed = sandbox.match(request.method, path || '/', discriminators);
      if (!routed) {
        return sendError(reply, 404, {
          error: 'not_found',
          error_description: `no operation of '${alias}' matches ${request.method} ${path || '/'}`,
        });
      }
      if ('allowed' in routed) {
        reply.header('Allow', routed.allowed.join(', '));
        return sendError(reply, 405, {
          error: 'method_not_allowed',
          error_description: `${request.method} is not documented for ${path}; use ${routed.allowed.join(', ')}`,
        });
      }
      // What this operation needs of the document, resolved and compiled on its first call.
      const { api, matched } = await sandbox.resolve(routed, request.method, path || '/', discriminators);
      // The endpoint names its API (the path under /sandbox): versions of an API share paths, and
      // an application subscribed to two of them must see their calls apart in analytics.
      const endpoint = `${matched.method} /${alias}${matched.template}`;

      // Authorization: one alternative of the operation's security, every scheme of it.
      const query = discriminators.query;
      const outcome = await authorize(request, api, matched, query, versions);
      if ('status' in outcome) return sendError(reply, outcome.status, outcome.body, outcome.dpop);
      if (outcome.access) {
        calls.set(request, {
          alias,
          endpoint,
          method: matched.method,
          clientId: outcome.access.clientId,
          applicationUuid: outcome.access.applicationUuid,
          environment: outcome.access.environment,
        });
      }

      // Request validation.
      const failure = api.validate(matched, {
        method: request.method,
        path,
        query,
        headers: request.headers,
        contentType: request.headers['content-type'],
        body: Buffer.isBuffer(request.body) ? request.body : undefined,
      });
      if (failure) {
        return sendError(reply, failure.status, {
          error: failure.status === 415 ? 'unsupported_media_type' : 'invalid_request',
          error_description: failure.description,
          parameter: failure.parameter,
          ...(failure.pointer ? { pointer: failure.pointer } : {}),
        });
      }

      // The documented answer, compressed once for the clients that accept it.
      const answer = await documentedAnswer(request, api, matched);
      reply.headers(answer.headers).status(answer.status).header('Cache-Control', 'no-store');
      if (answer.payload === undefined || request.method === 'HEAD') return reply.send();
      reply.type(answer.contentType!);
      if (!answer.compressible) return reply.send(answer.payload);
      reply.header('Vary', mergeVary(reply.getHeader('vary'), 'Accept-Encoding'));
      const encoding = acceptedEncoding(request.headers);
      const encoded = encoding && (await encodedAnswer(answer, encoding));
      if (!encoding || !encoded) return reply.send(answer.payload);
      return reply.header('Content-Encoding', encoding).send(encoded);
    };

    /** The answer in an encoding, made once; undefined (sent as it is) should compressing fail. */
    async function encodedAnswer(
      answer: DocumentedAnswer,
      encoding: AnswerEncoding,
    ): Promise<Buffer | undefined> {
      let encoded = answer.encoded.get(encoding);
      if (!encoded) {
        encoded = encodeAnswer(answer.payload!, encoding);
        answer.encoded.set(encoding, encoded);
      }
      try {
        return await encoded;
      } catch (err) {
        answer.encoded.delete(encoding);
        app.log.warn({ err }, 'sandbox: an answer could not be compressed; sent as it is');
        return undefined;
      }
    }

    app.decorate('sandboxGateway', { onRequest, handler, onResponse });
  },
  { name: 'gateway', dependencies: ['db', 'authz-server'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    callRecorder: CallRecorder;
    /** Writes every buffered call record now (tests, shutdown). */
    flushCallRecorder(): Promise<void>;
    sandboxDocuments: ReturnType<typeof createDocumentCache>;
    /** What the sandbox's routes run (gateway/routes.ts declares them in an instance of their own). */
    sandboxGateway: {
      onRequest(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined;
      handler(
        request: FastifyRequest<{ Params: { alias: string; '*'?: string } }>,
        reply: FastifyReply,
      ): Promise<FastifyReply>;
      onResponse(request: FastifyRequest, reply: FastifyReply): void;
    };
  }
}
