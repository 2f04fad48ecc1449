import { Alert, Button, Container, Stack } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { completeLogin } from '../../lib/session';
import { localizedPath } from '@portico/contracts/locale-path';
import { useAppStore } from '../../lib/store';

/**
 * /oauth2/callback: exchanges the code; then goes to the path remembered for the state, or /.
 * A failure shows the server's message, else the raw response, else the generic text (spec B 8).
 */
export default function CallbackPage() {
  const { t, locale } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const loginError = useAppStore((s) => s.applicationUser.loginError);
  const loginFailed = useAppStore((s) => s.loginFailed);
  const started = useRef(false);

  useEffect(() => {
    // The code is single-use: StrictMode's second effect run must not spend it again.
    if (started.current) return;
    started.current = true;
    completeLogin(params)
      .then(({ to, locale: language }) => {
        // The account's language, when it is not the page's: the same path under its prefix.
        if (language !== locale) window.location.replace(localizedPath(language, to));
        else void navigate(to, { replace: true });
      })
      .catch((err: unknown) => {
        const message =
          err instanceof ApiError
            ? (err.serverMessage ?? (typeof err.body === 'string' ? err.body : undefined))
            : undefined;
        loginFailed(message ?? t('errors.loginFailed'));
      });
  }, [params, navigate, loginFailed, t, locale]);

  if (loginError) {
    return (
      <Container size="sm" py="xl">
        <Stack>
          <Alert color="red" role="alert">
            {loginError}
          </Alert>
          <Button component={Link} to={paths.login} variant="default">
            {t('user.login')}
          </Button>
        </Stack>
      </Container>
    );
  }
  return <Loading label={t('session.loggingIn')} />;
}
