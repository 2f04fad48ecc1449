import {
  Alert,
  Autocomplete,
  Badge,
  Button,
  Code,
  CopyButton,
  Drawer,
  Group,
  NativeSelect,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  sandboxCredential,
  type OperationDetail,
  type SecuritySchemeSummary,
} from '@portico/contracts/catalog';
import { WIDE_SCREEN_MIN_PX } from '@portico/contracts/constants';
import { TRYOUT_RESPONSE_MAX_CHARS } from '@portico/contracts/tryout';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useAppStore, type TryoutHistoryItem } from '../../lib/store';
import { useTranslation } from '../../lib/i18n';
import { credentialOptions, withoutCredentialParameters } from './credentials';
import { setCallCookies, unsendableCookies } from './cookies';
import { failureSignature, nextFailureStreak } from './history';
import { HelpDialog } from './help-dialog';
import { HistoryPanel } from './history-panel';
import { JsonEditor, preloadJsonEditor } from './lazy-json-editor';
import {
  buildRequest,
  describeRequest,
  formParameters,
  valuesIn,
  hasBody,
  initialForm,
  jsonMedia,
  requiredErrors,
  toCurl,
  type BuiltRequest,
  type FieldError,
  type ParameterLocation,
  type TryoutForm,
} from './request';
import { openShared, shareUrl } from './share';
import { SNIPPET_TARGETS, type SnippetId } from './snippet-targets';
import { TokenPanel, type Credentials, type HeldToken } from './token-panel';
import { useTryoutHistory } from './use-history';

export interface TryoutConsoleProps {
  documentationAlias: string;
  operation: OperationDetail;
  opened: boolean;
  onClose(): void;
  /** A form to start from (a shared link, a re-run history item). */
  startForm?: TryoutForm | null;
  /** The document's security schemes (from the operation index): where an API key goes. */
  securitySchemes: SecuritySchemeSummary[];
  /** The key of another operation of the document, for re-running its history items. */
  operationKeyOf(method: string, path: string): string | null;
}

/** The console in a drawer: a side panel above 900 px, full width below (spec B 9). */
export default function TryoutConsoleDrawer(props: TryoutConsoleProps) {
  const { t } = useTranslation();
  const wide = useMediaQuery(`(min-width: ${WIDE_SCREEN_MIN_PX}px)`, true);
  const op = props.operation;
  // The page behind the open drawer is inert, as behind any modal dialog: neither focus, a screen
  // reader's cursor nor a click reaches it (the drawer is portalled outside #root). A layout
  // effect, so the page is live again before the drawer gives the focus back to its opener.
  useLayoutEffect(() => {
    const page = document.getElementById('root');
    if (!props.opened || !page) return;
    page.inert = true;
    return () => {
      page.inert = false;
    };
  }, [props.opened]);
  return (
    <Drawer
      opened={props.opened}
      onClose={props.onClose}
      position="right"
      size={wide ? 'min(820px, 60%)' : '100%'}
      title={t('tryout.consoleTitle', { method: op.method.toUpperCase(), path: op.path })}
      closeButtonProps={{ 'aria-label': t('tryout.close') }}
      keepMounted={false}
      data-testid="tryout-console"
    >
      <TryoutConsole {...props} />
    </Drawer>
  );
}

type Outcome =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'cancelled' }
  | { state: 'error'; message: string }
  | {
      state: 'success' | 'failure';
      status: number;
      statusText: string;
      ms: number;
      size: number;
      headers: [string, string][];
      text: string;
      schemaErrors: string[] | null;
    };

const MEANINGS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function valuesKey(alias: string, op: OperationDetail): string {
  return `${alias} ${op.method} ${op.path}`;
}

/** Headers that carry credentials are never stored or shared. */
const SECRET_HEADER = /authorization|api[-_]?key|secret|token|password/i;

export function TryoutConsole({
  documentationAlias,
  operation: op,
  startForm,
  securitySchemes,
  operationKeyOf,
}: TryoutConsoleProps) {
  const { t } = useTranslation();
  const signedIn = useAppStore((s) => s.applicationUser.isLoggedIn);
  const valueHistory = useAppStore((s) => s.tryout.values[valuesKey(documentationAlias, op)]);
  const setTryout = useAppStore((s) => s.setTryout);
  const history = useTryoutHistory(documentationAlias);
  const [form, setForm] = useState<TryoutForm>(() => startForm ?? initialForm(op));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [bodyErrors, setBodyErrors] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const [applied, setApplied] = useState<HeldToken | null>(null);
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const [tokenNotice, setTokenNotice] = useState<string | null>(null);
  const [streak, setStreak] = useState<{ signature: string | null; count: number }>({
    signature: null,
    count: 0,
  });
  const [helpOpen, setHelpOpen] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const cancels = useRef(new Set<() => void>());
  const sendButton = useRef<HTMLButtonElement>(null);

  const registerCancel = useCallback((cancel: () => void) => {
    cancels.current.add(cancel);
    return () => {
      cancels.current.delete(cancel);
    };
  }, []);

  // The schemes of the first security alternative, with their details from the index.
  const schemes = useMemo(() => {
    const first = op.security[0] ?? [];
    return first.map((s) => ({ requirement: s, scheme: securitySchemes.find((x) => x.name === s.scheme) }));
  }, [op.security, securitySchemes]);
  const needsToken = schemes.some((s) => sandboxCredential(s.scheme ?? s.requirement) === 'accessToken');
  const scopes = op.security[0]?.flatMap((s) => s.scopes) ?? [];

  // An expired token is not reused: the clock is read every few seconds while one is applied.
  const [now, setNow] = useState(() => Date.now());
  // The editor's chunk comes once the console is shown (lazy-json-editor.tsx).
  useEffect(() => preloadJsonEditor(), []);
  useEffect(() => {
    if (!applied) return;
    const timer = window.setInterval(() => setNow(Date.now()), 5000);
    return () => window.clearInterval(timer);
  }, [applied]);
  const tokenUsable = applied && applied.expiresAt > now ? applied : null;

  const creds = useMemo(
    () => credentialOptions(schemes, credentials, tokenUsable),
    [schemes, credentials, tokenUsable],
  );
  // The parameters a credential stands for are neither asked for nor sent twice.
  const formOp = useMemo(() => withoutCredentialParameters(op, creds.places), [op, creds.places]);
  const params = formParameters(formOp);
  const effectiveForm = { ...form, query: { ...form.query, ...creds.extraQuery } };
  const request = buildRequest(
    { ...formOp, parameters: [...formOp.parameters, ...Object.keys(creds.extraQuery).map(queryParam)] },
    effectiveForm,
    {
      authorization: creds.authorization,
      extraHeaders: creds.extraHeaders,
      extraCookies: creds.extraCookies,
    },
  );

  function setValue(location: ParameterLocation, name: string, value: string) {
    setForm((f) => ({ ...f, [location]: { ...f[location], [name]: value } }));
    if (value.trim()) setErrors((e) => e.filter((x) => !(x.location === location && x.name === name)));
  }

  function rememberValues() {
    const key = valuesKey(documentationAlias, op);
    setTryout((tr) => {
      const current = { ...(tr.values[key] ?? {}) };
      for (const p of formParameters(op)) {
        const value = valuesIn(form, p.in)[p.name] ?? '';
        if (!value || SECRET_HEADER.test(p.name)) continue;
        const field = `${p.in}.${p.name}`;
        current[field] = [value, ...(current[field] ?? []).filter((v) => v !== value)].slice(0, 10);
      }
      return { ...tr, values: { ...tr.values, [key]: current } };
    });
  }

  async function send() {
    // A call sent while a Quick Start story or a documentation's tour runs carries the 'tour'
    // badge, even if the tour ends before the answer comes.
    const fromTour = useAppStore.getState().tourRunning;
    const missing = requiredErrors(formOp, form);
    setErrors(missing);
    if (missing.length > 0) return;
    if (hasBody(op.method) && form.body.trim()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(form.body);
      } catch (err) {
        setBodyErrors([t('tryout.invalidJson', { message: (err as Error).message })]);
        return;
      }
      const schema = jsonMedia(op)?.media.schema;
      const problems = schema ? (await import('./validate')).validateAgainst(parsed, schema, op.refs) : [];
      setBodyErrors(problems);
      if (problems.length > 0) return;
    } else setBodyErrors([]);
    if (applied && applied.expiresAt <= Date.now()) setTokenNotice(t('tryout.tokenExpired'));
    else setTokenNotice(null);

    const unsendable = unsendableCookies(op.server, request.cookies);
    if (unsendable) {
      setOutcome({
        state: 'error',
        message:
          unsendable.reason === 'otherOrigin'
            ? t('tryout.cookiesOtherOrigin', { origin: unsendable.origin })
            : t('tryout.cookieBadName', { name: unsendable.name }),
      });
      return;
    }

    rememberValues();
    const controller = new AbortController();
    abort.current = controller;
    setOutcome({ state: 'loading' });
    const validation = import('./validate');
    const started = performance.now();
    let res: Response;
    let text: string;
    const removeCookies = request.cookies.length > 0 ? setCallCookies(op.server, request.cookies) : null;
    try {
      // A DPoP-bound token goes with a fresh proof of the browser's key for this very call.
      const headers =
        tokenUsable && tokenUsable.tokenType.toLowerCase() === 'dpop' && creds.authorization
          ? [
              ...request.headers,
              [
                'DPoP',
                await (
                  await import('./dpop-proof')
                ).dpopProof(request.method, request.url, tokenUsable.accessToken),
              ] as [string, string],
            ]
          : request.headers;
      res = await fetch(request.url, {
        method: request.method,
        headers,
        ...(request.body !== null ? { body: request.body } : {}),
        signal: controller.signal,
        // The portal's own cookies never go to the sandbox, unless the call has cookies of its own.
        credentials: removeCookies ? 'same-origin' : 'omit',
      });
      text = await res.text();
    } catch (err) {
      if (controller.signal.aborted) setOutcome({ state: 'cancelled' });
      else
        setOutcome({
          state: 'error',
          message: t('tryout.networkError', { message: (err as Error).message }),
        });
      return;
    } finally {
      abort.current = null;
      removeCookies?.();
    }
    const ms = Math.round(performance.now() - started);
    let data: unknown = text;
    let isJson = false;
    try {
      data = text ? JSON.parse(text) : null;
      isJson = true;
    } catch {
      // Not JSON: shown as text.
    }
    const documented =
      op.responses.find((r) => r.status === String(res.status)) ??
      op.responses.find((r) => r.status.toLowerCase() === `${String(res.status)[0]}xx`) ??
      op.responses.find((r) => r.status === 'default');
    const media = documented
      ? Object.entries(documented.content).find(([type]) => /json/i.test(type))?.[1]
      : undefined;
    // Ajv is its own chunk, fetched while the call is on its way.
    const schemaErrors =
      media?.schema != null && isJson
        ? (await validation).validateAgainst(data, media.schema, op.refs)
        : media?.schema != null
          ? []
          : null;
    const ok = res.ok;
    setOutcome({
      state: ok ? 'success' : 'failure',
      status: res.status,
      statusText: res.statusText || MEANINGS[res.status] || '',
      ms,
      size: new TextEncoder().encode(text).length,
      headers: [...res.headers],
      text: isJson && data !== null ? JSON.stringify(data, null, 2) : text,
      schemaErrors,
    });
    const item: TryoutHistoryItem = {
      uuid: crypto.randomUUID(),
      documentationId: documentationAlias,
      method: op.method,
      path: op.path,
      description: op.summary ?? '',
      form: {
        ...form,
        header: Object.fromEntries(Object.entries(form.header).filter(([n]) => !SECRET_HEADER.test(n))),
      },
      // Large answers are cut as the server cuts them: the store lives in localStorage.
      response: {
        status: res.status,
        data: text.length > TRYOUT_RESPONSE_MAX_CHARS ? `${text.slice(0, TRYOUT_RESPONSE_MAX_CHARS)}…` : data,
      },
      created: Date.now(),
      favorite: false,
      imported: false,
      fromTour,
    };
    history.add([item]);
    const next = nextFailureStreak(
      streak,
      ok ? { ok: true } : { ok: false, signature: failureSignature(res.status, text) },
    );
    setStreak(next.streak);
    if (next.openHelp) setHelpOpen(true);
  }

  function cancel() {
    abort.current?.abort();
    for (const c of cancels.current) c();
  }

  function rerun(item: TryoutHistoryItem) {
    if (item.method === op.method && item.path === op.path) {
      setForm({ ...initialForm(op), ...item.form });
      setErrors([]);
      sendButton.current?.focus();
    } else {
      const key = operationKeyOf(item.method, item.path);
      if (key) openShared(shareUrl(item, key));
    }
  }

  const errorOf = (location: FieldError['location'], name: string) =>
    errors.some((e) => e.location === location && e.name === name);

  return (
    <Stack gap="lg" data-testid="tryout-panel">
      {op.security.length > 0 && (
        <TokenPanel
          documentationAlias={documentationAlias}
          scopes={scopes}
          needsToken={needsToken}
          signedIn={signedIn}
          applied={applied}
          onApply={(token) => {
            setApplied(token);
            setNow(Date.now());
          }}
          onCredentials={setCredentials}
          registerCancel={registerCancel}
        />
      )}

      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
        noValidate
      >
        <Stack gap="md">
          {(['path', 'query', 'header', 'cookie'] as const).map((location) => {
            const list = params.filter((p) => p.in === location);
            if (list.length === 0) return null;
            return (
              <fieldset
                key={location}
                style={{ border: 0, padding: 0, margin: 0 }}
                data-testid={`tryout-${location}`}
              >
                <Title order={3} size="h5" mb={4} component="legend">
                  {t('tryout.parametersIn', { location: t(`tryout.location_${location}`) })}
                </Title>
                <Stack gap="xs">
                  {list.map((p) => {
                    const schema = p.schema && typeof p.schema === 'object' ? p.schema : null;
                    const values = schema && Array.isArray(schema.enum) ? schema.enum.map(String) : null;
                    const value = valuesIn(form, location)[p.name] ?? '';
                    const invalid = errorOf(location, p.name);
                    const label = p.name;
                    const description = typeof schema?.type === 'string' ? schema.type : undefined;
                    if (values) {
                      return (
                        <NativeSelect
                          key={p.name}
                          label={label}
                          description={description}
                          withAsterisk={p.required}
                          error={
                            invalid ? t('tryout.requiredMissing', { name: p.name, location }) : undefined
                          }
                          value={value}
                          onChange={(e) => setValue(location, p.name, e.currentTarget.value)}
                          data={[
                            ...(p.required ? [] : [{ value: '', label: t('tryout.notSet') }]),
                            ...values,
                          ]}
                        />
                      );
                    }
                    return (
                      <Autocomplete
                        key={p.name}
                        label={label}
                        description={description}
                        withAsterisk={p.required || location === 'path'}
                        error={invalid ? t('tryout.requiredMissing', { name: p.name, location }) : undefined}
                        value={value}
                        onChange={(v) => setValue(location, p.name, v)}
                        data={valueHistory?.[`${location}.${p.name}`] ?? []}
                        autoComplete="off"
                      />
                    );
                  })}
                </Stack>
              </fieldset>
            );
          })}

          {hasBody(op.method) && (
            <div>
              <Text fw={600} size="sm" mb={4} id="tryout-body-label">
                {t('tryout.requestBody')}
                {op.requestBody?.required && (
                  <Text span c="red.8" ml={4}>
                    *
                  </Text>
                )}
              </Text>
              <JsonEditor
                value={form.body}
                onChange={(body) => setForm((f) => ({ ...f, body }))}
                label={t('tryout.requestBody')}
                invalid={bodyErrors.length > 0 || errorOf('body', 'body')}
                testId="tryout-body"
                describedBy={bodyErrors.length > 0 ? 'tryout-body-errors' : undefined}
              />
              {bodyErrors.length > 0 && (
                <Alert
                  color="red"
                  role="alert"
                  mt="xs"
                  id="tryout-body-errors"
                  data-testid="tryout-body-errors"
                >
                  <Text size="sm">{t('tryout.bodyInvalid')}</Text>
                  <ul style={{ margin: 0 }}>
                    {bodyErrors.map((e) => (
                      <li key={e}>
                        <Text size="sm" ff="monospace">
                          {e}
                        </Text>
                      </li>
                    ))}
                  </ul>
                </Alert>
              )}
            </div>
          )}

          {errors.length > 0 && (
            <Alert color="red" role="alert" data-testid="tryout-form-errors">
              <Text size="sm">{t('tryout.formErrors')}</Text>
              <ul style={{ margin: 0 }}>
                {errors.map((e) => (
                  <li key={`${e.location}:${e.name}`}>
                    <Text size="sm">
                      {t('tryout.requiredMissing', { name: e.name, location: e.location })}
                    </Text>
                  </li>
                ))}
              </ul>
            </Alert>
          )}
          {tokenNotice && (
            <Alert color="yellow" role="status">
              {tokenNotice}
            </Alert>
          )}

          <Group gap="xs">
            <Button
              type="submit"
              ref={sendButton}
              loading={outcome.state === 'loading'}
              // Where the Quick Start tour points (content/quickstart/stories.yaml).
              data-tour="tryout-send"
            >
              {t('tryout.send')}
            </Button>
            {outcome.state === 'loading' && (
              <Button variant="default" onClick={cancel}>
                {t('tryout.cancel')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>

      <RequestView
        request={request}
        alias={documentationAlias}
        op={op}
        form={form}
        dpopToken={
          tokenUsable && tokenUsable.tokenType.toLowerCase() === 'dpop' && creds.authorization
            ? tokenUsable.accessToken
            : null
        }
      />
      <ResponseView outcome={outcome} />
      <HistoryPanel documentationId={documentationAlias} onRerun={rerun} />
      {helpOpen && (
        <HelpDialog
          opened={helpOpen}
          onClose={() => setHelpOpen(false)}
          subject={t('tryout.helpDefaultSubject', { method: op.method.toUpperCase(), path: op.path })}
          details={
            outcome.state === 'failure'
              ? `${request.method} ${request.url}\n${outcome.status} ${outcome.statusText}\n${outcome.text.slice(0, 2000)}`
              : ''
          }
        />
      )}
    </Stack>
  );
}

function queryParam(name: string) {
  return { name, in: 'query' as const, required: false, deprecated: false, description: null, schema: null };
}

function RequestView({
  request,
  alias,
  op,
  form,
  dpopToken,
}: {
  request: ReturnType<typeof buildRequest>;
  alias: string;
  op: OperationDetail;
  form: TryoutForm;
  /** The applied access token when it is DPoP-bound: the samples carry a proof for it. */
  dpopToken: string | null;
}) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<SnippetId>('curl');
  const [code, setCode] = useState('');
  // With a DPoP-bound token, the samples' request has a real proof of the console's key for it.
  const [proven, setProven] = useState<BuiltRequest | null>(null);
  const shown = dpopToken ? (proven ?? request) : request;
  const curl = toCurl(shown);
  const requestKey = JSON.stringify(request);
  useEffect(() => {
    let live = true;
    const withProof: Promise<BuiltRequest> = dpopToken
      ? import('./dpop-proof')
          .then((m) => m.dpopProof(request.method, request.url, dpopToken))
          .then((proof) => ({
            ...request,
            headers: [...request.headers, ['DPoP', proof] as [string, string]],
          }))
      : Promise.resolve(request);
    withProof
      .then((built) => {
        if (live) setProven(dpopToken ? built : null);
        return import('./snippets').then((m) => m.snippet(built, language));
      })
      .then(
        (c) => live && setCode(c),
        () => live && setCode(''),
      );
    return () => {
      live = false;
    };
    // The request is compared by value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestKey, language, dpopToken]);
  const share = shareUrl(
    {
      documentationId: alias,
      method: op.method,
      path: op.path,
      form: {
        ...form,
        header: Object.fromEntries(Object.entries(form.header).filter(([n]) => !SECRET_HEADER.test(n))),
      },
    },
    op.key,
  );
  return (
    <section aria-labelledby="tryout-request-title">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5" id="tryout-request-title">
          {t('tryout.request')}
        </Title>
        <Group gap="xs">
          <CopyButton value={curl}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? t('tryout.copied') : t('tryout.copyCurl')}
              </Button>
            )}
          </CopyButton>
          <CopyButton value={share}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant="default"
                onClick={copy}
                data-share={share}
                data-testid="tryout-share"
              >
                {copied ? t('tryout.copied') : t('tryout.shareLink')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Group>
      <Code block data-testid="tryout-request" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {describeRequest(shown)}
      </Code>
      <Title order={4} size="h6" mt="sm" mb={4}>
        {t('tryout.codeSamples')}
      </Title>
      <SegmentedControl
        size="xs"
        value={language}
        onChange={(v) => setLanguage(v as SnippetId)}
        data={SNIPPET_TARGETS.map((s) => ({ value: s.id, label: s.label }))}
        aria-label={t('tryout.codeSamples')}
        mb={4}
      />
      <Code block data-testid="tryout-snippet" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {code}
      </Code>
      {dpopToken && (
        <Text size="xs" mt={4} data-testid="tryout-dpop-note">
          {t('tryout.dpopSnippetNote')}
        </Text>
      )}
    </section>
  );
}

/** Why the sandbox refused a call: its OAuth-style error and description, when the body has them. */
function explanation(text: string): string | null {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof body.error !== 'string') return null;
    return typeof body.error_description === 'string'
      ? `${body.error}: ${body.error_description}`
      : body.error;
  } catch {
    return null;
  }
}

function ResponseView({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation();
  const stateLabel =
    outcome.state === 'idle'
      ? t('tryout.state_idle')
      : outcome.state === 'loading'
        ? t('tryout.state_loading')
        : outcome.state === 'success'
          ? t('tryout.state_success')
          : t('tryout.state_failure');
  const color =
    outcome.state === 'success'
      ? 'green'
      : outcome.state === 'idle' || outcome.state === 'loading'
        ? 'gray'
        : 'red';
  return (
    <section aria-labelledby="tryout-response-title" data-testid="tryout-response" data-state={outcome.state}>
      <Group gap="xs" mb="xs">
        <Title order={3} size="h5" id="tryout-response-title">
          {t('tryout.response')}
        </Title>
        <Badge color={color} variant="light" role="status" data-testid="tryout-state">
          {stateLabel}
        </Badge>
      </Group>
      {outcome.state === 'cancelled' && <Text size="sm">{t('tryout.cancelled')}</Text>}
      {outcome.state === 'error' && (
        <Alert color="red" role="alert">
          {outcome.message}
        </Alert>
      )}
      {(outcome.state === 'success' || outcome.state === 'failure') && (
        <Stack gap="xs">
          {/* The Quick Start tour's last step points here once an answer is shown. */}
          <Group gap="md" data-tour="tryout-response">
            <Text fw={700} data-testid="tryout-status">
              {outcome.status} {outcome.statusText}
            </Text>
            <Text size="sm" c="dimmed">
              {t('tryout.duration', { ms: outcome.ms })}
            </Text>
            <Text size="sm" c="dimmed">
              {formatSize(outcome.size)}
            </Text>
          </Group>
          {outcome.state === 'failure' && explanation(outcome.text) && (
            <Alert color="red" role="alert" data-testid="tryout-why">
              {explanation(outcome.text)}
            </Alert>
          )}
          {outcome.schemaErrors !== null &&
            (outcome.schemaErrors.length === 0 ? (
              <Text size="sm" c="green.9" data-testid="tryout-schema">
                {t('tryout.schemaMatches')}
              </Text>
            ) : (
              <Alert color="orange" data-testid="tryout-schema">
                <Text size="sm">{t('tryout.schemaMismatch')}</Text>
                <ul style={{ margin: 0 }}>
                  {outcome.schemaErrors.map((e) => (
                    <li key={e}>
                      <Text size="sm" ff="monospace">
                        {e}
                      </Text>
                    </li>
                  ))}
                </ul>
              </Alert>
            ))}
          <details>
            <summary>{t('tryout.headers')}</summary>
            <Table withTableBorder verticalSpacing={2} fz="xs">
              <Table.Tbody>
                {outcome.headers.map(([n, v]) => (
                  <Table.Tr key={n}>
                    <Table.Td ff="monospace">{n}</Table.Td>
                    <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {v}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </details>
          <Text size="sm" fw={600}>
            {t('tryout.body')}
          </Text>
          <div data-testid="tryout-response-body">
            <JsonEditor value={outcome.text} label={t('tryout.body')} readOnly />
          </div>
        </Stack>
      )}
    </section>
  );
}
