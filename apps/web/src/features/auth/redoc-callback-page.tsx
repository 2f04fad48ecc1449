import { Alert, Container } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useSearchParams } from 'react-router';

/** The message a try-out authorization popup sends to the page that opened it. */
export interface RedocCallbackMessage {
  type: 'portico:redoc-callback';
  code: string | null;
  error: string | null;
  state: string | null;
}

/**
 * /oauth2/redoc-callback (spec B 2.1): the redirect URI of the try-out's authorization popup. It
 * reads code and error from the query, hands them to the opener (same origin only) and closes.
 */
export default function RedocCallbackPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Opened directly rather than as a popup: nothing to hand over.
  const [orphan] = useState(() => !window.opener);

  useEffect(() => {
    const message: RedocCallbackMessage = {
      type: 'portico:redoc-callback',
      code: params.get('code'),
      error: params.get('error'),
      state: params.get('state'),
    };
    const opener = window.opener as Window | null;
    if (!opener) return;
    opener.postMessage(message, window.location.origin);
    window.close();
  }, [params]);

  return (
    <Container size="sm" py="xl">
      {orphan && (
        <Alert color="yellow" role="status">
          {params.get('error') ? t('tryout.authorizationFailed') : t('tryout.popupOnly')}
        </Alert>
      )}
    </Container>
  );
}
