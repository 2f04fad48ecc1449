import { Alert, Button, Group, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { ApiError, apiRequest } from '../../lib/api-client';
import { useAppStore } from '../../lib/store';

/**
 * For a signed-in account whose address is not proven yet: until the link sent at sign-up is
 * opened it cannot accept invitations (the server enforces it). Offers a new link.
 *
 * It reads the account from the store (the sign-in's answer, refreshed once per page load), so
 * it is part of the page's first render: a notice that came later, above the page, moved what
 * the reader was about to click.
 */
export function EmailVerificationNotice() {
  const { t } = useTranslation();
  const mail = useAppStore((s) => s.applicationUser.mail);
  const unverified = useAppStore((s) => s.applicationUser.isLoggedIn && !s.applicationUser.emailVerified);
  const resend = useMutation({
    mutationFn: () =>
      apiRequest<{ message: string }>('/user/verification-mail', {
        method: 'POST',
        body: {},
        format: 'json',
      }),
  });
  if (!unverified) return null;
  return (
    <Alert color="yellow" variant="light" role="region" aria-label={t('identity.verifyTitle')} radius={0}>
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t('identity.emailNotVerified', { email: mail ?? '' })}</Text>
        {resend.isSuccess ? (
          <Text size="sm" role="status">
            {resend.data.message}
          </Text>
        ) : (
          <Button size="xs" variant="outline" loading={resend.isPending} onClick={() => resend.mutate()}>
            {t('identity.resendVerification')}
          </Button>
        )}
      </Group>
      {resend.isError && (
        <Text size="sm" c="red.9" role="alert" mt="xs">
          {resend.error instanceof ApiError && resend.error.serverMessage
            ? resend.error.serverMessage
            : t('identity.tooManyVerificationMails')}
        </Text>
      )}
    </Alert>
  );
}
