import { Button } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import { quickstartStepSchema } from '@portico/contracts/quickstart';
import { useMemo } from 'react';
import { z } from 'zod';
import { useTranslation } from '../lib/i18n';
import { useQuickstartStore } from '../lib/quickstart-store';

/** A documentation's tour data (field_tour): a list of steps, or `{ steps: [...] }`. */
const tourSchema = z.union([
  z.array(quickstartStepSchema).min(1),
  z.object({ steps: z.array(quickstartStepSchema).min(1) }).transform((v) => v.steps),
]);

export function parseTour(tour: unknown) {
  const parsed = tourSchema.safeParse(tour);
  return parsed.success ? parsed.data : null;
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
