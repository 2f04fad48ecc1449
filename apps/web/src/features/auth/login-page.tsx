import { Alert, Container } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useSearchParams } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { messageOf } from '../../lib/api-client';
import { safePath, startLogin } from '../../lib/session';

/** /login?returnTo=/x (spec B 2.1): remembers the return path and goes to the identity provider. */
export default function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const returnTo = safePath(params.get('returnTo') ?? '/');
  const screen = params.get('screen') === 'signup' ? 'signup' : undefined;

  useEffect(() => {
    startLogin(returnTo, screen).catch((err: unknown) => setError(messageOf(err, t('errors.loginFailed'))));
  }, [returnTo, screen, t]);

  return (
    <Container size="sm" py="xl">
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : (
        <Loading label={t('session.loggingIn')} />
      )}
    </Container>
  );
}
