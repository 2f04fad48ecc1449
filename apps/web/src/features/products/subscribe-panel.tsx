import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useLocation } from 'react-router';
import { loginPath, paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useIsLoggedIn } from '../../lib/store';
import { useMyApplications, useSubscribe, type SubscribableApp } from './api-subscriptions';

export interface ProductChoice {
  id: string;
  title: string;
}

interface Props {
  products: ProductChoice[];
  /** The product the user subscribes to; null while a documentation of several products has no choice. */
  productId: string | null;
  onChooseProduct: (id: string) => void;
  plan: string;
}

/**
 * Plans and subscription (spec B 2.12): the plan table, SUBSCRIBE (disabled for anonymous
 * visitors), 'START USING THIS API' (for anonymous visitors it wraps the login prompt of the
 * client-select popup: 'You have to LOGIN'), the product choice when the documentation belongs to
 * several products, and the client id of a subscribed application with the spec's tooltips.
 */
export function SubscribePanel({ products, productId, onChooseProduct, plan }: Props) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const [popup, setPopup] = useState(false);
  const apps = useMyApplications(loggedIn);
  const myApps = apps.data ?? [];
  const subscribedApps = productId ? myApps.filter((a) => a.subscriptionIds.includes(productId)) : [];

  return (
    <Stack gap="md" data-testid="subscribe-panel">
      <Table withTableBorder data-testid="plan-table">
        <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>{t('products.plans')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('products.plan')}</Table.Th>
            <Table.Th scope="col">{t('products.rateLimit')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>{t('products.sandboxPlan')}</Table.Td>
            <Table.Td>{plan}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>

      {products.length > 1 && (
        <Select
          label={t('products.chooseProduct')}
          description={t('products.chooseProductHint')}
          data={products.map((p) => ({ value: p.id, label: p.title }))}
          value={productId}
          onChange={(v) => v && onChooseProduct(v)}
          allowDeselect={false}
        />
      )}

      <Group gap="sm">
        <Button onClick={() => setPopup(true)} disabled={!loggedIn || !productId}>
          {t('products.subscribe')}
        </Button>
        <Button variant="outline" onClick={() => setPopup(true)}>
          {t('products.startUsing')}
        </Button>
      </Group>

      {loggedIn && apps.isSuccess && (
        <ClientIdField hasApps={myApps.length > 0} subscribedApps={subscribedApps} />
      )}

      <Modal opened={popup} onClose={() => setPopup(false)} title={t('products.chooseApplication')} size="xl">
        {loggedIn ? (
          <ClientSelect
            products={products}
            productId={productId}
            onChooseProduct={onChooseProduct}
            apps={myApps}
            loading={apps.isPending}
            loadError={apps.error}
          />
        ) : (
          <LoginPrompt />
        )}
      </Modal>
    </Stack>
  );
}

/** The client-select popup for anonymous visitors: 'You have to LOGIN' and the way to. */
function LoginPrompt() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Stack align="center" gap="md" py="md">
      <Text fw={600}>{t('products.youHaveToLogin')}</Text>
      <Button component={Link} to={loginPath(location.pathname + location.search + location.hash)}>
        {t('products.login')}
      </Button>
    </Stack>
  );
}

/** The development client id of a subscribed application, or the reason there is none. */
function ClientIdField({ hasApps, subscribedApps }: { hasApps: boolean; subscribedApps: SubscribableApp[] }) {
  const { t } = useTranslation();
  const ids = subscribedApps.flatMap((a) =>
    a.clientId.development
      ? [{ value: a.clientId.development, label: `${a.title}: ${a.clientId.development}` }]
      : [],
  );
  if (ids.length > 0) {
    return (
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('products.clientId')}
        </Text>
        {ids.map((id) => (
          <Code key={id.value} data-testid="client-id">
            {id.label}
          </Code>
        ))}
      </Stack>
    );
  }
  const tooltip = hasApps ? t('products.subscribeTooltip') : t('products.createAppTooltip');
  return (
    <Tooltip label={tooltip} withArrow>
      <div>
        <TextInput label={t('products.clientId')} disabled value="" placeholder={tooltip} readOnly />
      </div>
    </Tooltip>
  );
}

function ClientSelect({
  products,
  productId,
  onChooseProduct,
  apps,
  loading,
  loadError,
}: {
  products: ProductChoice[];
  productId: string | null;
  onChooseProduct: (id: string) => void;
  apps: SubscribableApp[];
  loading: boolean;
  loadError: unknown;
}) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const subscribe = useSubscribe();
  const visible = apps.filter((a) => a.title.toLowerCase().includes(filter.trim().toLowerCase()));

  if (loading) return <Text>{t('products.chooseApplication')}…</Text>;
  return (
    <Stack gap="md">
      {products.length > 1 && (
        <Select
          label={t('products.chooseProduct')}
          description={t('products.chooseProductHint')}
          data={products.map((p) => ({ value: p.id, label: p.title }))}
          value={productId}
          onChange={(v) => {
            if (!v) return;
            subscribe.reset();
            onChooseProduct(v);
          }}
          allowDeselect={false}
        />
      )}
      {loadError !== null && (
        <Alert color="red" role="alert">
          {messageOf(loadError, t('products.subscribeError'))}
        </Alert>
      )}
      {subscribe.isError && (
        <Alert color="red" role="alert" data-testid="subscribe-error">
          {messageOf(subscribe.error, t('products.subscribeError'))}
        </Alert>
      )}
      {subscribe.isSuccess && (
        <Alert color="green" role="status">
          {t('products.subscribeSuccess')}
        </Alert>
      )}
      {apps.length === 0 ? (
        <Stack align="flex-start" gap="sm">
          <Text>{t('products.noApplications')}</Text>
          <Tooltip label={t('products.createAppTooltip')} withArrow>
            <Button component={Link} to={paths.organizationsForNewApplication}>
              {t('products.createApplication')}
            </Button>
          </Tooltip>
        </Stack>
      ) : (
        <>
          <TextInput
            label={t('products.filterApplications')}
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            type="search"
          />
          <Table.ScrollContainer minWidth={520}>
            <Table withTableBorder data-testid="application-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('products.application')}</Table.Th>
                  <Table.Th scope="col">{t('products.organization')}</Table.Th>
                  <Table.Th scope="col">{t('products.status')}</Table.Th>
                  <Table.Th scope="col">{t('products.action')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {visible.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={4}>{t('products.noMatchingApplications')}</Table.Td>
                  </Table.Tr>
                )}
                {visible.map((app) => {
                  const subscribed = productId !== null && app.subscriptionIds.includes(productId);
                  const production = app.applicationStatus === 'PRODUCTION';
                  const pending = subscribe.isPending && subscribe.variables?.application === app.uuid;
                  return (
                    <Table.Tr key={app.uuid}>
                      <Table.Td>{app.title}</Table.Td>
                      <Table.Td>{app.organization?.title ?? ''}</Table.Td>
                      <Table.Td>{app.applicationStatus}</Table.Td>
                      <Table.Td>
                        {subscribed ? (
                          <Badge color="green">{t('products.subscribed')}</Badge>
                        ) : (
                          <Tooltip label={t('products.productionApp')} disabled={!production} withArrow>
                            <Button
                              size="xs"
                              loading={pending}
                              disabled={!productId || production || !app.permissions.update}
                              onClick={() =>
                                productId && subscribe.mutate({ application: app.uuid, product: productId })
                              }
                              aria-label={`${t('products.subscribe')}: ${app.title}`}
                            >
                              {t('products.subscribe')}
                            </Button>
                          </Tooltip>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}
