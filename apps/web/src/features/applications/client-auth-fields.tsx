import {
  Code,
  Fieldset,
  List,
  Radio,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  CLIENT_AUTH_ATTRIBUTES,
  CLIENT_AUTH_METHODS,
  defaultClientAuthForm,
  type ClientAuthenticationView,
  type ClientAuthForm,
} from '@portico/contracts/client-auth';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

/** The attribute a failed save's first error points at (`/data/attributes/<name>`), if any. */
export function errorAttribute(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const errors = (error.body as { errors?: { source?: { pointer?: unknown } }[] } | undefined)?.errors;
  const pointer = Array.isArray(errors) ? errors[0]?.source?.pointer : undefined;
  return typeof pointer === 'string' ? pointer.replace(/^\/data\/attributes\//, '') : undefined;
}

/**
 * The application form's client authentication section (issue 28, decision 049): client secret,
 * signed JWT (a pasted JWKS or a JWKS URL) or mutual TLS (the certificate's subject DN, or a
 * self-signed certificate in the JWKS). The server checks the keys and answers a precise message.
 */
export function ClientAuthFields({
  value = defaultClientAuthForm,
  onChange,
  serverError,
}: {
  value: ClientAuthForm | undefined;
  onChange(value: ClientAuthForm): void;
  /** The server's message for one of these fields (by attribute name), shown at the field too. */
  serverError?: { attribute: string; message: string } | undefined;
}) {
  const { t } = useTranslation();
  const [source, setSource] = useState<'jwks' | 'uri'>(value.jwksUri ? 'uri' : 'jwks');
  const set = (patch: Partial<ClientAuthForm>) => onChange({ ...value, ...patch });
  const errorAt = (attribute: string) =>
    serverError?.attribute === attribute ? serverError.message : undefined;
  const keyed = value.method === 'private_key_jwt' || value.method === 'self_signed_tls_client_auth';
  return (
    <Fieldset legend={t('clientAuth.legend')} variant="unstyled">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('clientAuth.hint')}
        </Text>
        <Radio.Group
          label={t('clientAuth.method')}
          value={value.method}
          onChange={(method) => set({ method: method as ClientAuthForm['method'] })}
        >
          <Stack gap={6} mt="xs">
            {CLIENT_AUTH_METHODS.map((m) => (
              <Radio key={m} value={m} label={t(`clientAuth.methods.${m}`)} />
            ))}
          </Stack>
        </Radio.Group>
        {keyed && (
          <>
            <SegmentedControl
              aria-label={t('clientAuth.keySource')}
              value={source}
              onChange={(v) => {
                const next = v === 'uri' ? 'uri' : 'jwks';
                setSource(next);
                set(next === 'uri' ? { jwks: '' } : { jwksUri: '' });
              }}
              data={[
                { value: 'jwks', label: t('clientAuth.keySourceJwks') },
                { value: 'uri', label: t('clientAuth.keySourceUri') },
              ]}
            />
            {source === 'jwks' ? (
              <Textarea
                label={t('clientAuth.jwks')}
                description={`${t('clientAuth.jwksHint')}${
                  value.method === 'self_signed_tls_client_auth' ? ` ${t('clientAuth.jwksCertHint')}` : ''
                }`}
                required
                autosize
                minRows={5}
                maxRows={16}
                spellCheck={false}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                value={value.jwks}
                error={errorAt(CLIENT_AUTH_ATTRIBUTES.jwks)}
                onChange={(e) => set({ jwks: e.currentTarget.value })}
              />
            ) : (
              <TextInput
                label={t('clientAuth.jwksUri')}
                description={t('clientAuth.jwksUriHint')}
                required
                type="url"
                value={value.jwksUri}
                error={errorAt(CLIENT_AUTH_ATTRIBUTES.jwksUri)}
                onChange={(e) => set({ jwksUri: e.currentTarget.value })}
              />
            )}
          </>
        )}
        {value.method === 'tls_client_auth' && (
          <TextInput
            label={t('clientAuth.tlsSubjectDn')}
            description={t('clientAuth.tlsSubjectDnHint')}
            required
            value={value.tlsSubjectDn}
            error={errorAt(CLIENT_AUTH_ATTRIBUTES.tlsSubjectDn)}
            onChange={(e) => set({ tlsSubjectDn: e.currentTarget.value })}
          />
        )}
      </Stack>
    </Fieldset>
  );
}

/** The application view's client authentication field. */
export function ClientAuthSummary({ auth }: { auth: ClientAuthenticationView | undefined }) {
  const { t } = useTranslation();
  if (!auth) return null;
  const kids = (auth.jwks?.keys ?? []).map((k, i) =>
    typeof k.kid === 'string' ? k.kid : `${String(k.kty)} #${i + 1}`,
  );
  return (
    <Stack gap={4} data-testid="client-authentication">
      <Title order={3} size="h5">
        {t('clientAuth.legend')}
      </Title>
      <Text size="sm">{t(`clientAuth.methods.${auth.method}`)}</Text>
      {auth.jwks && (
        <>
          <Text size="sm">{t('clientAuth.viewKeys', { count: kids.length })}</Text>
          <List size="sm" spacing={2}>
            {kids.map((kid) => (
              <List.Item key={kid}>
                <Code>{kid}</Code>
              </List.Item>
            ))}
          </List>
        </>
      )}
      {auth.jwksUri && (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {t('clientAuth.viewKeysAt')} <Code>{auth.jwksUri}</Code>
        </Text>
      )}
      {auth.tlsSubjectDn && (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {t('clientAuth.viewSubject')}: <Code>{auth.tlsSubjectDn}</Code>
        </Text>
      )}
    </Stack>
  );
}
