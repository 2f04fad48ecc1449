import { Alert } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import type { TranslationMarker } from './translation';

/** The note above an item shown in the default language because it has no translation yet. */
export function TranslationNote({ marker }: { marker: TranslationMarker | null | undefined }) {
  const { t } = useTranslation();
  if (!marker?.fallback) return null;
  return (
    <Alert color="gray" variant="light" mb="md" data-testid="translation-fallback">
      {t('translations.fallbackNote')}
    </Alert>
  );
}
