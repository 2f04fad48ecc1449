import { Alert, Button, Checkbox, Stack, Text, Title } from '@mantine/core';
import type { Application } from '@portico/contracts/applications';
import type { TokenSecurity, TokenSecurityInput } from '@portico/contracts/token-security';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRequest, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

/**
 * The application's token security (issue 28): DPoP-bound tokens and the FAPI 2.0 profile
 * (PUT /api/applications/:id/token-security). FAPI 2.0 needs signed JWT or mutual TLS client
 * authentication: with a client secret the checkbox is off and says why. A chunk of its own,
 * loaded with the application page.
 */
export default function TokenSecuritySection({ app }: { app: Application }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const key = ['token-security', app.uuid] as const;
  const url = `/api/applications/${encodeURIComponent(app.uuid)}/token-security`;
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiRequest<{ data: TokenSecurity }>(url, { format: 'json' }).then((r) => r.data),
  });
  // The user's choices over what the server has (null until changed).
  const [edited, setForm] = useState<TokenSecurityInput | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (input: TokenSecurityInput) =>
      apiRequest<{ data: TokenSecurity }>(url, { method: 'PUT', format: 'json', body: input }).then(
        (r) => r.data,
      ),
    onSuccess: (data) => {
      client.setQueryData(key, data);
      setForm(null);
      setSaved(true);
    },
  });
  if (!query.data) return null;
  const form: TokenSecurityInput = edited ?? {
    dpopBoundAccessTokens: query.data.dpopBoundAccessTokens,
    fapi: query.data.fapi,
  };
  const editable = app.permissions.update && app.applicationStatus !== 'PRODUCTION';
  const fapiBlocked = !query.data.fapiAllowed && !form.fapi;
  const change = (next: Partial<TokenSecurityInput>) => {
    setSaved(false);
    save.reset();
    setForm({ ...form, ...next });
  };
  return (
    <Stack component="section" aria-labelledby="token-security-title" gap="sm" mt="xl">
      <Title order={2} size="h4" id="token-security-title">
        {t('tokenSecurity.title')}
      </Title>
      <Text size="sm">{t('tokenSecurity.intro')}</Text>
      <Checkbox
        label={t('tokenSecurity.dpopLabel')}
        description={t('tokenSecurity.dpopDescription')}
        checked={form.dpopBoundAccessTokens || form.fapi}
        disabled={!editable || form.fapi}
        onChange={(e) => change({ dpopBoundAccessTokens: e.currentTarget.checked })}
      />
      <Checkbox
        label={t('tokenSecurity.fapiLabel')}
        description={
          fapiBlocked
            ? `${t('tokenSecurity.fapiDescription')} ${t('tokenSecurity.fapiNeedsKeyAuth')}.`
            : t('tokenSecurity.fapiDescription')
        }
        checked={form.fapi}
        disabled={!editable || fapiBlocked}
        onChange={(e) => change({ fapi: e.currentTarget.checked })}
      />
      {editable && (
        <div>
          <Button onClick={() => save.mutate(form)} loading={save.isPending}>
            {t('tokenSecurity.save')}
          </Button>
        </div>
      )}
      {saved && (
        <Alert color="green" role="status">
          {t('tokenSecurity.saved')}
        </Alert>
      )}
      {save.isError && (
        <Alert color="red" role="alert">
          {messageOf(save.error, t('tokenSecurity.fapiNeedsKeyAuth'))}
        </Alert>
      )}
    </Stack>
  );
}
