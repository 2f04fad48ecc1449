import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { listProducts, moveProduct, type ConsoleProductListItem } from './api';

export const PRODUCTS_KEY = ['console-products'] as const;

/**
 * The catalog's products in their order (weight, then title), each with buttons that move it one
 * place up or down (ordinary buttons: the keyboard reaches and presses them, and the focus stays
 * on the moved row's button) and a link to its form.
 */
export function ProductList() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const products = useQuery({ queryKey: PRODUCTS_KEY, queryFn: listProducts });
  // A product deleted in its form comes back here with what happened.
  const location = useLocation();
  const [status, setStatus] = useState<string | null>(
    () => (location.state as { notice?: string } | null)?.notice ?? null,
  );
  const [error, setError] = useState<string | null>(null);
  const move = useMutation({
    mutationFn: ({ product, direction }: { product: ConsoleProductListItem; direction: 'up' | 'down' }) =>
      moveProduct(product.id, direction, product.version),
    onSuccess: async (moved) => {
      setError(null);
      setStatus(t('console.products.moved', { title: moved.title }));
      await client.invalidateQueries({ queryKey: PRODUCTS_KEY });
    },
    onError: async (err) => {
      setStatus(null);
      setError(messageOf(err, t('errors.somethingWentWrong')));
      await client.invalidateQueries({ queryKey: PRODUCTS_KEY });
    },
  });

  return (
    <Stack gap="sm" component="section" aria-labelledby="console-products-title">
      <Title order={2} size="h3" id="console-products-title">
        {t('console.products.title')}
      </Title>
      <Group justify="space-between" align="flex-end">
        <Text>{t('console.products.intro')}</Text>
        <Button component={Link} to={paths.adminProductNew}>
          {t('console.products.newProduct')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Text size="sm" role="status" aria-live="polite" data-testid="products-status">
        {status}
      </Text>
      {products.isError && (
        <Alert color="red">{messageOf(products.error, t('errors.somethingWentWrong'))}</Alert>
      )}
      {!products.data ? (
        !products.isError && <Loading />
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label={t('console.products.listLabel')} data-testid="console-products">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('console.products.columns.order')}</Table.Th>
                <Table.Th>{t('console.products.columns.product')}</Table.Th>
                <Table.Th>{t('console.products.columns.category')}</Table.Th>
                <Table.Th>{t('console.products.columns.state')}</Table.Th>
                <Table.Th>{t('console.products.columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {products.data.map((p, i, all) => (
                <Table.Tr key={p.id} data-testid="console-product-row">
                  <Table.Td>{i + 1}</Table.Td>
                  <Table.Td>
                    <Text fw={600}>{p.title}</Text>
                    <Text size="xs" c="dimmed">
                      /{p.alias}
                      {p.productVersion ? ` · ${p.productVersion}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{p.category ?? '—'}</Table.Td>
                  <Table.Td>
                    <ProductStates product={p} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="default"
                        aria-label={t('console.products.moveUp', { title: p.title })}
                        disabled={i === 0}
                        onClick={() => !move.isPending && move.mutate({ product: p, direction: 'up' })}
                      >
                        ↑
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="default"
                        aria-label={t('console.products.moveDown', { title: p.title })}
                        disabled={i === all.length - 1}
                        onClick={() => !move.isPending && move.mutate({ product: p, direction: 'down' })}
                      >
                        ↓
                      </Button>
                      <Anchor
                        component={Link}
                        to={paths.adminProduct(p.id)}
                        aria-label={t('console.products.editLabel', { title: p.title })}
                      >
                        {t('console.products.edit')}
                      </Anchor>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function ProductStates({ product: p }: { product: ConsoleProductListItem }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Group gap={4}>
        {p.retired ? (
          <Badge color="gray" variant="light">
            {t('console.products.states.retired')}
          </Badge>
        ) : p.deprecated ? (
          <Badge color="red" variant="light">
            {t('console.products.states.deprecated')}
          </Badge>
        ) : (
          <Badge color="green" variant="light">
            {t('console.products.states.live')}
          </Badge>
        )}
        {p.commercial && (
          <Badge color="violet" variant="light">
            {t('console.products.states.commercial')}
          </Badge>
        )}
      </Group>
      {p.deprecated && p.successor && (
        <Text size="xs">{t('console.products.successorOf', { title: p.successor.title })}</Text>
      )}
    </Stack>
  );
}
