import { Button, CloseButton, Dialog, Group, Stack, Text, Title } from '@mantine/core';
import { POPUP_MS, POPUP_TRANSITION_MS } from '@portico/contracts/constants';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useNewestVersion } from './api-products';
import { aliasSlug } from './text';

/**
 * The deprecated-version notice (spec B 2.11, 4, 9): 'THIS VERSION IS NO LONGER SUPPORTED' with a
 * word about the newer version, shown for 20 s with a 0.5 s transition; 'GO TO NEW VERSION' leads
 * to the newest supported version of the same product.
 */
export function DeprecatedPopup({ productId }: { productId: string }) {
  const { t } = useTranslation();
  const newest = useNewestVersion(productId, true);
  const [opened, setOpened] = useState(true);

  useEffect(() => {
    const timer = window.setTimeout(() => setOpened(false), POPUP_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (newest.isPending) return null;
  const next = newest.data && newest.data.uuid !== productId ? newest.data : null;
  return (
    <Dialog
      opened={opened}
      transitionProps={{ transition: 'slide-up', duration: POPUP_TRANSITION_MS }}
      position={{ bottom: 24, right: 24 }}
      size="lg"
      shadow="lg"
      role="dialog"
      aria-labelledby="deprecated-title"
      data-testid="deprecated-popup"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} size="h5" id="deprecated-title" c="red.8">
            {t('products.deprecatedTitle')}
          </Title>
          <CloseButton aria-label={t('products.closePopup')} onClick={() => setOpened(false)} />
        </Group>
        <Text size="sm">
          {next
            ? t('products.deprecatedNewer', { title: next.title, version: next.version ?? '' })
            : t('products.deprecatedNoNewer')}
        </Text>
        {next && (
          <Button
            component={Link}
            to={paths.apiProduct(aliasSlug(next.alias) || next.uuid)}
            onClick={() => setOpened(false)}
          >
            {t('products.goToNewVersion')}
          </Button>
        )}
      </Stack>
    </Dialog>
  );
}
