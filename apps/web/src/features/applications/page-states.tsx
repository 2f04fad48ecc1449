import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { NotFound } from '../../components/not-found';

/** Sets the `status-code` meta marker the 404 page uses too (the server answers 200 for app routes). */
function useStatusMarker(code: string) {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'status-code';
    meta.content = code;
    document.head.appendChild(meta);
    return () => meta.remove();
  }, [code]);
}

/** The edit-denied page (spec A 2: 'You cannot edit a production application.', status Forbidden). */
export function EditDenied({ backTo }: { backTo: string }) {
  const { t } = useTranslation();
  useStatusMarker('403');
  return (
    <Stack align="center" py={60} gap="md" data-testid="edit-denied">
      <Title order={1}>{t('errors.unauthorized')}</Title>
      <Text>{t('applications.cannotEdit')}</Text>
      <Button component={Link} to={backTo} variant="default">
        {t('applications.ui.backToOverview')}
      </Button>
    </Stack>
  );
}

/** A member without the permission the page needs. */
export function NotAllowedHere() {
  const { t } = useTranslation();
  useStatusMarker('403');
  return (
    <Stack align="center" py={60}>
      <Title order={1}>{t('errors.unauthorized')}</Title>
      <Text>{t('errors.notAllowed')}</Text>
    </Stack>
  );
}

/** The application screens need ?organization= (spec A 2). */
export function MissingOrganization() {
  const { t } = useTranslation();
  return (
    <Stack align="center" py={60} gap="md">
      <Text>{t('applications.ui.organizationMissing')}</Text>
      <Button component={Link} to={paths.organizations}>
        {t('applications.ui.myOrganizations')}
      </Button>
    </Stack>
  );
}

/** A failed load: unknown (or foreign) applications are a 404, refusals say so, the rest shows the message. */
export function LoadFailed({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (error instanceof ApiError && error.status === 404) return <NotFound />;
  if (error instanceof ApiError && error.status === 403) return <NotAllowedHere />;
  return (
    <Alert color="red" role="alert" my="xl">
      {messageOf(error, t('errors.somethingWentWrong'))}
    </Alert>
  );
}
