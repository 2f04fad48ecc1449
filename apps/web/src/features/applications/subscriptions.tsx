import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Collapse,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { Application, Subscription } from '@portico/contracts/applications';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { changeSubscription } from './api';
import { useApplicationCache } from './queries';

const SelectProductModal = lazy(() => import('./select-product-modal'));

/** The Scopes table of one product: API title, development scope, production scope when any. */
function ScopesTable({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const withProduction = subscription.apiEndpoints.some((e) => e.scope_production);
  return (
    <Table withTableBorder fz="sm" aria-label={`${t('applications.ui.scopes')} ${subscription.title}`}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('applications.ui.apiTitle')}</Table.Th>
          <Table.Th scope="col">{t('applications.ui.developmentScope')}</Table.Th>
          {withProduction && <Table.Th scope="col">{t('applications.ui.productionScope')}</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {subscription.apiEndpoints.map((e) => (
          <Table.Tr key={e.uuid}>
            <Table.Td>{e.title}</Table.Td>
            <Table.Td>{e.scope}</Table.Td>
            {withProduction && <Table.Td>{e.scope_production}</Table.Td>}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function SubscriptionItem({
  subscription,
  production,
  canChange,
  onUnsubscribe,
}: {
  subscription: Subscription;
  production: boolean;
  canChange: boolean;
  onUnsubscribe(): void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const scopesId = `scopes-${subscription.uuid}`;
  return (
    <Card withBorder padding="sm" component="li" data-testid="subscription">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Text fw={600}>{subscription.title}</Text>
          {subscription.version && (
            <Text size="sm" c="dimmed">
              {t('applications.ui.version', { version: subscription.version })}
            </Text>
          )}
        </Stack>
        {subscription.deprecated && (
          <Badge color="orange" variant="light">
            {t('applications.ui.deprecated')}
          </Badge>
        )}
      </Group>
      <Group gap="md" mt="xs">
        <Anchor component={Link} to={paths.apiProduct(subscription.uuid)} size="sm">
          {t('applications.ui.viewDetails')}
        </Anchor>
        {!production && canChange && (
          <Anchor component="button" type="button" size="sm" c="red" onClick={onUnsubscribe}>
            {t('applications.ui.unsubscribe')}
          </Anchor>
        )}
        <Anchor
          component="button"
          type="button"
          size="sm"
          aria-expanded={open}
          aria-controls={scopesId}
          onClick={() => setOpen((o) => !o)}
        >
          {t('applications.ui.scopes')}
        </Anchor>
      </Group>
      <Collapse expanded={open} id={scopesId} mt={open ? 'xs' : 0}>
        <ScopesTable subscription={subscription} />
      </Collapse>
    </Card>
  );
}

/**
 * The subscriptions section (spec A 2): the subscribed products on the left, Unsubscribe (not
 * in production) with a confirmation, and the 'Select Product' modal to subscribe.
 */
export function Subscriptions({ app }: { app: Application }) {
  const { t } = useTranslation();
  const cache = useApplicationCache();
  const production = app.applicationStatus === 'PRODUCTION';
  const canChange = app.permissions.update;
  const [selecting, setSelecting] = useState(false);
  const [unsubscribing, setUnsubscribing] = useState<Subscription | null>(null);
  const unsubscribe = useMutation({
    mutationFn: (product: string) => changeSubscription('unsubscribe', app.uuid, product),
    onSuccess: (updated) => {
      cache.put(updated);
      void cache.refetch(app.uuid);
      setUnsubscribing(null);
    },
  });
  const closeUnsubscribe = () => {
    setUnsubscribing(null);
    unsubscribe.reset();
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="app-subscriptions">
      <Group justify="space-between">
        <Title order={2} size="h4" id="app-subscriptions">
          {t('applications.ui.subscriptions')}
        </Title>
        {!production && canChange && (
          <Button size="xs" onClick={() => setSelecting(true)}>
            {t('applications.ui.addProducts')}
          </Button>
        )}
      </Group>
      {app.subscriptions.length === 0 ? (
        <Alert color="yellow" data-testid="no-subscription">
          {t('applications.noSubscription')}
        </Alert>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {app.subscriptions.map((s) => (
            <SubscriptionItem
              key={s.uuid}
              subscription={s}
              production={production}
              canChange={canChange}
              onUnsubscribe={() => {
                unsubscribe.reset();
                setUnsubscribing(s);
              }}
            />
          ))}
        </Stack>
      )}
      <Modal
        opened={unsubscribing !== null}
        onClose={closeUnsubscribe}
        title={t('applications.ui.unsubscribeTitle')}
        centered
      >
        <Stack>
          <Text>
            {t('applications.ui.unsubscribeConfirm', {
              title: app.title,
              product: unsubscribing?.title ?? '',
            })}
          </Text>
          {unsubscribe.isError && (
            <Alert color="red" role="alert">
              {t('applications.unsubscribeFailed')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={closeUnsubscribe}>
              {t('applications.ui.cancel')}
            </Button>
            <Button
              color="red"
              loading={unsubscribe.isPending}
              onClick={() => unsubscribing && unsubscribe.mutate(unsubscribing.uuid)}
            >
              {t('applications.ui.unsubscribe')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {selecting && (
        <Suspense fallback={null}>
          <SelectProductModal app={app} onClose={() => setSelecting(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
