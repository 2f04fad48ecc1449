import { Button, Group, Modal, Stack } from '@mantine/core';
import type { Application, CertificateValidation } from '@portico/contracts/applications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate } from 'react-router';
import { HtmlContent } from '../../components/ui/html-content';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { validateCertificate } from './api';

interface Failure {
  message: string;
  certRequired: boolean;
}

/** The check's refusal (422 with isValid false) or any other failure, as the Error modal shows it. */
function failureOf(error: unknown, fallback: string): Failure {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const body = error.body as Partial<CertificateValidation>;
    if (typeof body.message === 'string' && body.message)
      return { message: body.message, certRequired: body.certRequired === true };
    if (error.serverMessage) return { message: error.serverMessage, certRequired: false };
  }
  return { message: fallback, certRequired: false };
}

/**
 * Go live (spec A 4): validates the PSD certificate first; on success the go-live form opens, on
 * failure an Error modal shows the server's message with 'Add certificate' when one is required.
 */
export function GoLiveButton({ app, organization }: { app: Application; organization: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<Failure | null>(null);
  const check = useMutation({
    mutationFn: () => validateCertificate(app.uuid),
    onSuccess: (result) => {
      if (result.isValid)
        void navigate(`/goLive/${app.uuid}?organization=${encodeURIComponent(organization)}`);
      else
        setFailure({
          message: result.message || t('applications.certificateFallback'),
          certRequired: result.certRequired,
        });
    },
    onError: (error) => setFailure(failureOf(error, t('applications.certificateFallback'))),
  });
  return (
    <>
      <Button color="green" loading={check.isPending} onClick={() => check.mutate()}>
        {t('applications.ui.goLive')}
      </Button>
      <Modal
        opened={failure !== null}
        onClose={() => setFailure(null)}
        title={t('applications.ui.error')}
        centered
      >
        <Stack>
          {/* The message may contain HTML (spec A 4); HtmlContent sanitizes it. */}
          <HtmlContent html={failure?.message ?? ''} data-testid="go-live-error" />
          <Group justify="flex-end">
            {failure?.certRequired && (
              <Button component={Link} to={paths.organization(app.organizationId)}>
                {t('applications.ui.addCertificate')}
              </Button>
            )}
            <Button variant="default" onClick={() => setFailure(null)}>
              {t('applications.ui.close')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
