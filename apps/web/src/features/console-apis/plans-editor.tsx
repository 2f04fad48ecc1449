import { Alert, Anchor, Box, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { PLAN_MAX } from '@portico/contracts/console-products';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { listPlans, savePlans, type ProductPlan, type ProductPlans } from './api';

const plansKey = (productId: string) => ['console-plans', productId] as const;

/**
 * The plan each API documentation of the product shows in its plan table (spec B 2.12), edited
 * together; an empty plan is the default ('100 per hour').
 */
export function PlansEditor({ productId }: { productId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({ queryKey: plansKey(productId), queryFn: () => listPlans(productId) });
  return (
    <Paper
      withBorder
      p="md"
      mt="xl"
      component="section"
      aria-labelledby="plans-title"
      data-testid="plans-editor"
    >
      <Title order={2} size="h3" id="plans-title" mb="xs">
        {t('console.products.plans.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('console.products.plans.intro')}
      </Text>
      {query.isError ? (
        <Alert color="red">{messageOf(query.error, t('errors.somethingWentWrong'))}</Alert>
      ) : !query.data ? (
        <Loading />
      ) : query.data.plans.length === 0 ? (
        <Text size="sm">{t('console.products.plans.none')}</Text>
      ) : (
        <PlansForm
          key={`${query.data.version}:${query.data.plans.map((p) => `${p.documentation}:${p.plan}`).join('|')}`}
          plans={query.data.plans}
          version={query.data.version}
          onReload={() => void query.refetch()}
          onSaved={(saved) => client.setQueryData(plansKey(productId), saved)}
          productId={productId}
        />
      )}
    </Paper>
  );
}

function PlansForm({
  productId,
  plans,
  version,
  onSaved,
  onReload,
}: {
  productId: string;
  plans: ProductPlan[];
  /** The plans' version the form started from. */
  version: number;
  onSaved(saved: ProductPlans): void;
  /** Loads the plans saved meanwhile (after a 409). */
  onReload(): void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() => plans.map((p) => p.plan));
  const [notice, setNotice] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      savePlans(
        productId,
        plans.map((p, i) => ({ documentation: p.documentation, plan: values[i]?.trim() || null })),
        version,
      ),
    onSuccess: (saved) => {
      setNotice(t('console.products.plans.saved'));
      onSaved(saved);
    },
    onError: () => setNotice(null),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Box component="form" onSubmit={submit} aria-label={t('console.products.plans.title')}>
      <Stack gap="sm">
        {plans.map((p, i) => (
          <Stack key={p.documentation} gap={2}>
            <TextInput
              label={t('console.products.plans.planLabel', {
                title: `${p.title}${p.apiVersion ? ` ${p.apiVersion}` : ''}`,
              })}
              description={t('console.products.plans.planHelp')}
              placeholder={t('catalog.defaultPlan')}
              maxLength={PLAN_MAX}
              value={values[i] ?? ''}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setValues((v) => v.map((x, j) => (j === i ? value : x)));
              }}
            />
            <Anchor component={Link} to={paths.documentation(p.alias)} size="xs">
              {t('console.products.plans.open')}: /documentation/{p.alias}
            </Anchor>
          </Stack>
        ))}
        {save.isError && (
          <Alert color="red" role="alert">
            {messageOf(save.error, t('errors.somethingWentWrong'))}
            {save.error instanceof ApiError && save.error.status === 409 && (
              <Button size="xs" mt="xs" display="block" onClick={onReload}>
                {t('console.products.editor.conflictLoad')}
              </Button>
            )}
          </Alert>
        )}
        <Text size="sm" role="status" aria-live="polite" c="green.9" data-testid="plans-status">
          {notice}
        </Text>
        <div>
          <Button type="submit" loading={save.isPending}>
            {t('console.products.plans.save')}
          </Button>
        </div>
      </Stack>
    </Box>
  );
}
