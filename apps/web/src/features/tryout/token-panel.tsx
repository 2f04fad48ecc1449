import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  NativeSelect,
  PasswordInput,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { TRYOUT_POPUP_CHECK_MS, TRYOUT_POPUP_SIZE } from '@portico/contracts/tryout';
import { useTranslation } from '../../lib/i18n';
import { messageOf } from '../../lib/api-client';
import { useAppStore } from '../../lib/store';
import { loadTryoutToken, saveTryoutToken } from '../../lib/tryout-token';
import { KeyAuthNotice } from './key-auth-notice';
import {
  OAuthError,
  pkcePair,
  portalUrl,
  redocCallbackUrl,
  requestToken,
  resetDevelopmentSecret,
  subscribedTo,
  tokenEndpointUrl,
  useTokenSecurity,
  useTryoutApps,
  type TokenAnswer,
} from './api';

/** What /oauth2/redoc-callback posts to its opener (features/auth/redoc-callback-page.tsx). */
interface CallbackMessage {
  type: 'portico:redoc-callback';
  code: string | null;
  error: string | null;
  state: string | null;
}

export type Flow = 'client_credentials' | 'authorization_code';

/**
 * A token as the panel holds it (spec B 3 'Try-out access token'), kept in the tab's session
 * storage across a reload and removed on sign-out (lib/tryout-token.ts, issue 28).
 */
export interface HeldToken {
  accessToken: string;
  /** 'Bearer', or 'DPoP' for a token bound to the browser's key (dpop-proof.ts). */
  tokenType: string;
  expiresAt: number;
  scopes: string[];
  /** Renews the token after it expires, without a new sign-in (authorization_code tokens). */
  refreshToken?: string;
}

export interface Credentials {
  clientId: string;
  secret: string;
}

export interface TokenPanelProps {
  documentationAlias: string;
  /** The scopes the operation's first requirement asks for. */
  scopes: string[];
  /** Whether an access token is what the operation takes (else the client id / secret are). */
  needsToken: boolean;
  signedIn: boolean;
  applied: HeldToken | null;
  onApply(token: HeldToken): void;
  onCredentials(credentials: Credentials | null): void;
  /** Registers the panel's cancel (abort the token call, close the popup) with the console. */
  registerCancel(cancel: () => void): () => void;
}

/** Whole minutes left, rounded up (expires_in / 60 when fresh). */
export function minutesLeft(token: HeldToken, now: number): number {
  return Math.max(0, Math.ceil((token.expiresAt - now) / 60_000));
}

function held(answer: TokenAnswer, requested: string[]): HeldToken {
  return {
    accessToken: answer.access_token,
    tokenType: answer.token_type || 'Bearer',
    expiresAt: Date.now() + answer.expires_in * 1000,
    scopes: answer.scope ? answer.scope.split(' ').filter(Boolean) : requested,
    ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}),
  };
}

/**
 * The token panel (spec B 2.12, 4 'Token request', 5 'Token form'): flow, client id of the
 * user's subscribed applications, client secret; Send disabled until a flow and a secret are
 * given. authorization_code opens /authorize in a popup that comes back through
 * /oauth2/redoc-callback. The token can be applied to the Authorization header.
 */
export function TokenPanel(props: TokenPanelProps) {
  const { t } = useTranslation();
  const apps = useTryoutApps(props.signedIn);
  const user = useAppStore((s) => s.applicationUser.uuid);
  // The token this tab held before a reload (for the user signed in now).
  const [restored] = useState(() => loadTryoutToken(user));
  const eligible = useMemo(
    () => (apps.data ? subscribedTo(apps.data, props.documentationAlias) : []),
    [apps.data, props.documentationAlias],
  );
  // The first subscribed application until the user picks another.
  const [chosen, setClientId] = useState<string | null>(restored?.clientId ?? null);
  const clientId = chosen ?? eligible[0]?.clientId.development ?? '';
  const [flow, setFlow] = useState<Flow | ''>('client_credentials');
  const [secret, setSecret] = useState('');
  const [token, setToken] = useState<HeldToken | null>(() => restored && heldOf(restored));
  const [notice, setNotice] = useState<string | null>(restored ? t('tryout.tokenRestored') : null);
  const [renewFailed, setRenewFailed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [secretNotice, setSecretNotice] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const abort = useRef<AbortController | null>(null);
  const popup = useRef<Window | null>(null);
  const cleanup = useRef<(() => void) | null>(null);

  const selected = eligible.find((a) => a.clientId.development === clientId);
  const validClient = Boolean(selected);
  const { onCredentials, registerCancel, onApply } = props;
  const security = useTokenSecurity(selected?.uuid);
  const dpop = security.data?.dpopBoundAccessTokens === true;
  // A signed JWT or mutual TLS: the key or certificate is not in this browser (key-auth-notice.tsx).
  const keyMethod = selected?.clientAuthentication?.method ?? 'client_secret';
  const keyAuth = security.data?.fapi === true || keyMethod !== 'client_secret';

  // A restored token is applied again, as it was before the reload.
  useEffect(() => {
    if (restored) onApply(heldOf(restored));
  }, [restored, onApply]);

  // Kept for this tab (session storage), with the user and client it was issued to.
  useEffect(() => {
    if (!token || !user) return;
    saveTryoutToken({ ...token, user, clientId });
  }, [token, user, clientId]);

  useEffect(() => {
    onCredentials(validClient ? { clientId, secret } : null);
  }, [validClient, clientId, secret, onCredentials]);

  // The expiry counts down while a token is shown; an expired one is renewed when it can be.
  const onExpiry = useRef<() => void>(() => undefined);
  useEffect(() => {
    if (!token) return;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      if (at >= token.expiresAt) onExpiry.current();
    };
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [token]);

  function stop() {
    abort.current?.abort();
    abort.current = null;
    cleanup.current?.();
    cleanup.current = null;
    if (popup.current && !popup.current.closed) popup.current.close();
    popup.current = null;
    setLoading(false);
  }
  useEffect(() => registerCancel(stop), [registerCancel]);
  useEffect(() => stop, []);

  async function exchange(fields: Record<string, string>): Promise<HeldToken | null> {
    const controller = new AbortController();
    abort.current = controller;
    try {
      // A DPoP-bound application's token requests carry a proof of the browser's key.
      const headers: Record<string, string> = dpop
        ? { DPoP: await (await import('./dpop-proof')).dpopProof('POST', tokenEndpointUrl()) }
        : {};
      const answer = await requestToken(
        {
          ...fields,
          client_id: clientId,
          client_secret: secret,
          ...(props.scopes.length && fields.grant_type !== 'refresh_token'
            ? { scope: props.scopes.join(' ') }
            : {}),
        },
        controller.signal,
        headers,
      );
      const next = held(answer, props.scopes);
      setToken(next);
      setNow(Date.now());
      setError(null);
      setNotice(null);
      return next;
    } catch (err) {
      if (controller.signal.aborted) return null;
      setError(err instanceof OAuthError && err.description ? err.description : t('tryout.tokenFailed'));
      return null;
    } finally {
      setLoading(false);
    }
  }

  /** A new token from the refresh token (rotated by the server): no new sign-in. */
  async function renew() {
    if (!token?.refreshToken || !secret || !validClient) return;
    const wasApplied = props.applied?.accessToken === token.accessToken;
    setLoading(true);
    setError(null);
    const next = await exchange({ grant_type: 'refresh_token', refresh_token: token.refreshToken });
    if (!next) {
      setRenewFailed(true);
      return;
    }
    setNotice(t('tryout.tokenRenewed'));
    if (wasApplied) onApply(next);
  }

  async function authorize() {
    const { verifier, challenge } = await pkcePair();
    const state = crypto.randomUUID();
    const redirectUri = redocCallbackUrl();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...(props.scopes.length ? { scope: props.scopes.join(' ') } : {}),
    });
    const { width, height } = TRYOUT_POPUP_SIZE;
    const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
    const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
    const opened = window.open(
      portalUrl(`authorize?${query}`),
      'portico-tryout-authorize',
      `width=${width},height=${height},left=${left},top=${top}`,
    );
    if (!opened) {
      setLoading(false);
      setError(t('tryout.authorizationFailed'));
      return;
    }
    popup.current = opened;
    let done = false;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const data = event.data as Partial<CallbackMessage> | null;
      if (!data || data.type !== 'portico:redoc-callback' || data.state !== state) return;
      done = true;
      finish();
      if (popup.current && !popup.current.closed) popup.current.close();
      if (data.error || !data.code) {
        setLoading(false);
        setError(t('tryout.authorizationFailed'));
        return;
      }
      void exchange({
        grant_type: 'authorization_code',
        code: data.code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
    };
    // The user closed the popup without an answer: a failure. The callback page closes it right
    // after posting, so a message may still be on its way: it gets one more check's time.
    let closedSeen = false;
    const timer = window.setInterval(() => {
      if (done || !opened.closed) return;
      if (!closedSeen) {
        closedSeen = true;
        return;
      }
      finish();
      setLoading(false);
      setError(t('tryout.authorizationFailed'));
    }, TRYOUT_POPUP_CHECK_MS);
    function finish() {
      window.clearInterval(timer);
      window.removeEventListener('message', onMessage);
      cleanup.current = null;
    }
    window.addEventListener('message', onMessage);
    cleanup.current = finish;
  }

  function send() {
    if (!flow || !secret || !validClient) return;
    setLoading(true);
    setError(null);
    if (flow === 'client_credentials') void exchange({ grant_type: 'client_credentials' });
    else void authorize();
  }

  async function reset() {
    if (!selected) return;
    setError(null);
    try {
      const answer = await resetDevelopmentSecret(selected.uuid);
      setSecret(answer.secret);
      setSecretNotice(true);
    } catch (err) {
      setError(messageOf(err, t('tryout.tokenFailed')));
    }
  }

  const expired = token !== null && token.expiresAt <= now;

  const canRenew = Boolean(token?.refreshToken && secret && validClient && !loading);
  // What the countdown does when the token expires: renew it with the refresh token at once
  // (once: after a failure the user renews or gets a new token).
  useEffect(() => {
    onExpiry.current = () => {
      if (canRenew && !renewFailed) void renew();
    };
  });

  if (!props.signedIn) {
    return (
      <Section title={props.needsToken ? t('tryout.token') : t('tryout.clientId')}>
        <Text size="sm">{t('tryout.signInForTokens')}</Text>
      </Section>
    );
  }

  return (
    <Section title={props.needsToken ? t('tryout.token') : t('tryout.clientId')}>
      <Stack gap="xs">
        {apps.isSuccess && eligible.length === 0 && (
          <Text size="sm" data-testid="tryout-no-apps">
            {apps.data.length === 0 ? t('tryout.noApplications') : t('tryout.subscribeToEnable')}
          </Text>
        )}
        <Group grow align="flex-end">
          {props.needsToken && (
            <NativeSelect
              label={t('tryout.flow')}
              value={flow}
              onChange={(e) => setFlow(e.currentTarget.value as Flow | '')}
              data={[
                { value: '', label: '—' },
                { value: 'client_credentials', label: 'client_credentials' },
                { value: 'authorization_code', label: 'authorization_code' },
              ]}
            />
          )}
          <NativeSelect
            label={t('tryout.clientId')}
            value={clientId}
            onChange={(e) => setClientId(e.currentTarget.value)}
            data={[
              { value: '', label: '—' },
              ...eligible.map((a) => ({
                value: a.clientId.development!,
                label: `${a.title} (${a.clientId.development})`,
              })),
            ]}
          />
        </Group>
        {keyAuth && props.needsToken && (
          <KeyAuthNotice
            method={keyMethod}
            fapi={security.data?.fapi === true}
            clientId={clientId}
            scopes={props.scopes}
          />
        )}
        <PasswordInput
          label={t('tryout.clientSecret')}
          value={secret}
          onChange={(e) => setSecret(e.currentTarget.value)}
          autoComplete="off"
        />
        {secretNotice && (
          <Alert color="yellow" role="status" data-testid="tryout-secret-notice">
            {t('tryout.copySecret')}
          </Alert>
        )}
        <Group gap="xs">
          {props.needsToken && (
            <Tooltip label={t('tryout.selectValidClient')} disabled={validClient}>
              <span>
                <Button
                  onClick={send}
                  loading={loading}
                  disabled={!validClient || !flow || !secret || keyAuth}
                  aria-describedby={validClient ? undefined : 'tryout-client-hint'}
                >
                  {t('tryout.getToken')}
                </Button>
              </span>
            </Tooltip>
          )}
          <Button variant="default" onClick={() => void reset()} disabled={!selected?.permissions.update}>
            {t('tryout.resetSecret')}
          </Button>
        </Group>
        {!validClient && props.needsToken && (
          <Text size="xs" c="dimmed" id="tryout-client-hint">
            {t('tryout.selectValidClient')}
          </Text>
        )}
        {error && (
          <Alert color="red" role="alert" data-testid="tryout-token-error">
            {error}
          </Alert>
        )}
        {notice && (
          <Text size="sm" role="status" data-testid="tryout-token-notice">
            {notice}
          </Text>
        )}
        {token && (
          <Stack gap={4} data-testid="tryout-token">
            <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {token.accessToken}
            </Code>
            {token.tokenType.toLowerCase() === 'dpop' && (
              <Text size="xs" data-testid="tryout-token-dpop">
                {t('tryout.dpopBound')}
              </Text>
            )}
            <Group gap="xs">
              <Text size="sm" data-testid="tryout-token-expiry">
                {expired
                  ? t('tryout.tokenExpired')
                  : t('tryout.tokenExpiresIn', { minutes: minutesLeft(token, now) })}
              </Text>
              {token.scopes.length > 0 && (
                <>
                  <Text size="sm">{t('tryout.tokenScopes')}:</Text>
                  {token.scopes.map((s) => (
                    <Badge key={s} variant="light" tt="none">
                      {s}
                    </Badge>
                  ))}
                </>
              )}
            </Group>
            <Group gap="xs">
              <Button size="xs" onClick={() => props.onApply(token)} disabled={expired}>
                {t('tryout.apply')}
              </Button>
              {token.refreshToken && (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => {
                    setRenewFailed(false);
                    void renew();
                  }}
                  disabled={!canRenew}
                >
                  {t('tryout.renewToken')}
                </Button>
              )}
              {props.applied?.accessToken === token.accessToken && (
                <Text size="xs" c="green.9" role="status">
                  {t('tryout.applied')}
                </Text>
              )}
            </Group>
          </Stack>
        )}
      </Stack>
    </Section>
  );
}

function heldOf(stored: HeldToken): HeldToken {
  const { accessToken, tokenType, expiresAt, scopes, refreshToken } = stored;
  return { accessToken, tokenType, expiresAt, scopes, ...(refreshToken ? { refreshToken } : {}) };
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </section>
  );
}
