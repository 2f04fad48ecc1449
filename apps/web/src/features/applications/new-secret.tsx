import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';

/**
 * A client secret shown once, after a reset or a rotation: its value with a copy button and the
 * reminder to copy it now. `children` come first (what happened to the previous secret).
 */
export function NewSecret({
  testId,
  title,
  secret,
  children,
}: {
  testId: string;
  title: string;
  secret: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="green" role="status" data-testid={testId} title={title}>
      <Stack gap="xs">
        {children}
        <Group gap="xs" wrap="wrap">
          <Code data-testid={`${testId}-value`} style={{ wordBreak: 'break-all' }}>
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="light" onClick={copy}>
                {copied ? t('applications.ui.copied') : t('applications.ui.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">{t('applications.copySecret')}</Text>
      </Stack>
    </Alert>
  );
}
