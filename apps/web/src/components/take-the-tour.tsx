import { Button } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import type { QuickstartStep } from '@portico/contracts/quickstart';
import { useMemo } from 'react';
import { useTranslation } from '../lib/i18n';
import { useQuickstartStore } from '../lib/quickstart-store';

const isStep = (v: unknown): v is QuickstartStep =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { target?: unknown }).target === 'string' &&
  typeof (v as { content?: unknown }).content === 'string';

/**
 * A documentation's tour data (field_tour): a list of steps, or `{ steps: [...] }`, each with at
 * least a target and a content. Checked by hand: zod would weigh on the documentation page.
 */
export function parseTour(tour: unknown): QuickstartStep[] | null {
  const list: unknown = Array.isArray(tour) ? tour : (tour as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(list) || !list.length || !list.every(isStep)) return null;
  return list.map((s) => ({ ...s, spotlightClicks: s.spotlightClicks === true }));
}

/** 'Take the tour' on a documentation page with tour data (spec B 2.12). Nothing without it. */
export function TakeTheTour({ title, tour }: { title: string; tour: unknown }) {
  const { t } = useTranslation();
  const steps = useMemo(() => parseTour(tour), [tour]);
  if (!steps) return null;
  return (
    <Button
      variant="light"
      leftSection={<IconRoute size={16} />}
      onClick={() => useQuickstartStore.getState().start({ kind: 'documentation', title, steps })}
      data-testid="take-the-tour"
    >
      {t('quickstart.takeTheTour')}
    </Button>
  );
}
