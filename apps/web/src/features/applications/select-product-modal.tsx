import {
  Alert,
  Anchor,
  Button,
  Group,
  Image,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Application } from '@portico/contracts/applications';
import { APPLICATIONS_PAGE_SIZE, TABLE_SEARCH_DEBOUNCE_MS } from '@portico/contracts/constants';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { changeSubscription, fetchSubscribableProducts, type ProductSort } from './api';
import { useApplicationCache } from './queries';

const NEXT_SORT: Record<ProductSort, ProductSort> = { default: 'title', title: '-title', '-title': 'title' };

/**
 * 'Select Product' (spec A 2): a searchable (debounced 200 ms), sortable, paginated table of the
 * products the application may subscribe to, each with a subscribe / unsubscribe toggle.
 * Its own chunk: loaded when the modal first opens.
 */
export default function SelectProductModal({ app, onClose }: { app: Application; onClose(): void }) {
  const { t } = useTranslation();
  const cache = useApplicationCache();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, TABLE_SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useState<ProductSort>('default');
  const [page, setPage] = useState(0);
  const products = useQuery({
    queryKey: ['subscribable-products', debounced, sort, page],
    queryFn: () => fetchSubscribableProducts({ search: debounced, sort, page }),
    placeholderData: keepPreviousData,
  });
  // Spec A 4: start sets loading and clears the error; failure keeps the message.
  const toggle = useMutation({
    mutationFn: (v: { type: 'subscribe' | 'unsubscribe'; product: string }) =>
      changeSubscription(v.type, app.uuid, v.product),
    onSuccess: (updated) => {
      cache.put(updated);
      void cache.refetch(app.uuid);
    },
  });
  const toggleError = toggle.isError
    ? toggle.variables.type === 'subscribe'
      ? messageOf(toggle.error, t('applications.subscribeFailed'))
      : t('applications.unsubscribeFailed')
    : null;
  const pages = Math.max(1, Math.ceil((products.data?.count ?? 0) / APPLICATIONS_PAGE_SIZE));
  const lastPage = pages - 1;
  const sortState = sort === 'title' ? 'ascending' : sort === '-title' ? 'descending' : 'none';

  return (
    <Modal opened onClose={onClose} title={t('applications.ui.selectProduct')} size="xl" centered>
      <Stack gap="sm">
        <TextInput
          label={t('applications.ui.searchProducts')}
          type="search"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(0);
          }}
          rightSection={products.isFetching ? <Loader size="xs" /> : null}
        />
        {toggleError && (
          <Alert color="red" role="alert">
            {toggleError}
          </Alert>
        )}
        {products.isError ? (
          <Alert color="red" role="alert">
            {messageOf(products.error, t('applications.subscribeFailed'))}
          </Alert>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs" aria-label={t('applications.ui.selectProduct')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('applications.ui.image')}</Table.Th>
                  <Table.Th scope="col" aria-sort={sortState}>
                    <UnstyledButton
                      fw={700}
                      fz="sm"
                      aria-label={t('applications.ui.sortByName')}
                      onClick={() => {
                        setSort((s) => NEXT_SORT[s]);
                        setPage(0);
                      }}
                    >
                      {t('applications.ui.name')} {sort === 'title' ? '▲' : sort === '-title' ? '▼' : '↕'}
                    </UnstyledButton>
                  </Table.Th>
                  <Table.Th scope="col">{t('applications.ui.status')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.details')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {products.isPending ? (
                  <Table.Tr>
                    <Table.Td colSpan={4}>
                      <Loader size="sm" />
                    </Table.Td>
                  </Table.Tr>
                ) : products.data.rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={4}>
                      <Text size="sm">{t('applications.ui.noProducts')}</Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  products.data.rows.map((p) => {
                    const subscribed = app.subscriptionIds.includes(p.uuid);
                    const busy = toggle.isPending && toggle.variables.product === p.uuid;
                    return (
                      <Table.Tr key={p.uuid} data-testid="product-row">
                        <Table.Td w={72}>
                          {p.imageUrl ? (
                            <Image src={p.imageUrl} alt={p.imageAlt} w={48} h={48} fit="contain" />
                          ) : null}
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" fw={500} lang={p.lang}>
                            {p.title}
                          </Text>
                          {p.version && (
                            <Text size="xs" c="dimmed">
                              {t('applications.ui.version', { version: p.version })}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Button
                            size="compact-sm"
                            variant={subscribed ? 'light' : 'filled'}
                            color={subscribed ? 'red' : undefined}
                            loading={busy}
                            disabled={toggle.isPending && !busy}
                            aria-label={`${subscribed ? t('applications.ui.unsubscribe') : t('applications.ui.subscribe')} ${p.title}`}
                            onClick={() =>
                              toggle.mutate({
                                type: subscribed ? 'unsubscribe' : 'subscribe',
                                product: p.uuid,
                              })
                            }
                          >
                            {subscribed ? t('applications.ui.unsubscribe') : t('applications.ui.subscribe')}
                          </Button>
                        </Table.Td>
                        <Table.Td>
                          <Anchor component={Link} to={paths.apiProduct(p.uuid)} size="sm">
                            {t('applications.ui.viewDetails')}
                          </Anchor>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed">
            {t('applications.ui.pageOf', { page: page + 1, pages })}
          </Text>
          <Group gap="xs" component="nav" aria-label={t('applications.ui.selectProduct')}>
            <Button size="compact-sm" variant="default" disabled={page === 0} onClick={() => setPage(0)}>
              {t('applications.ui.first')}
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              disabled={page === 0}
              onClick={() => setPage((p) => Math.max(0, p - 1))}
            >
              {t('applications.ui.previous')}
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              disabled={page >= lastPage}
              onClick={() => setPage((p) => Math.min(lastPage, p + 1))}
            >
              {t('applications.ui.next')}
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              disabled={page >= lastPage}
              onClick={() => setPage(lastPage)}
            >
              {t('applications.ui.last')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
