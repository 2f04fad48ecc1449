import { Alert, Container } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { completeAuthentication } from '../../components/content/cloud-docs';
import { Loading } from '../../components/ui/loading';
import { useTranslation } from '../../lib/i18n';

let last: { hash: string; result: ReturnType<typeof completeAuthentication> } | undefined;
function completed(hash: string) {
  if (last?.hash !== hash) last = { hash, result: completeAuthentication(hash) };
  return last.result;
}

/** Google sends the browser back here with the token in the fragment; then on to the document. */
export default function CloudDocsCallbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Read once per visit (the fragment's state is used up by the first read).
  const [{ error, returnTo }] = useState(() => completed(window.location.hash));
  useEffect(() => {
    if (!error) void navigate(returnTo, { replace: true });
  }, [error, returnTo, navigate]);
  return error ? (
    <Container size="sm" py="xl">
      <Alert color="red" role="alert">
        {error === 'invalid_state' ? t('content.cloudDocFailed') : error}
      </Alert>
    </Container>
  ) : (
    <Loading label={t('content.signingIn')} />
  );
}
