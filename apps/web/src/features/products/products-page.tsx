import { Alert, Container, Grid, NavLink, Pagination, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PRODUCTS_PAGE_SIZE } from '@portico/contracts/constants';
import { useTranslation } from '../../lib/i18n';
import { useSearchParams } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { messageOf } from '../../lib/api-client';
import { Included } from './api-jsonapi';
import { useCategories, useProducts } from './api-products';
import { ProductCard } from './product-card';

/** /apiProducts (spec B 2.10): login required. */
export default function ProductsPage() {
  return (
    <RequireLogin>
      <ProductsList />
    </RequireLogin>
  );
}

/**
 * Title API Products, the 'FILTER APIs' sidebar with ALL CATEGORIES and the categories, and the
 * product cards. The filter lives in the query string (filterName, filterValue) and so does the
 * page, so a filtered list can be shared and survives a reload.
 */
function ProductsList() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filterValue = params.get('filterValue') || null;
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);
  const categories = useCategories();
  const products = useProducts(filterValue, page, PRODUCTS_PAGE_SIZE);

  const choose = (category: { id: string; name: string } | null) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    if (category) {
      next.set('filterName', category.name);
      next.set('filterValue', category.id);
    } else {
      next.delete('filterName');
      next.delete('filterValue');
    }
    setParams(next);
  };
  const goToPage = (p: number) => {
    const next = new URLSearchParams(params);
    if (p > 0) next.set('page', String(p));
    else next.delete('page');
    setParams(next);
    window.scrollTo({ top: 0 });
  };

  const included = new Included(products.data?.included);
  const count = products.data?.meta?.count ?? 0;
  const pages = Math.ceil(count / PRODUCTS_PAGE_SIZE);

  return (
    <Container size="xl" py="xl">
      <PageTitle>{t('products.listTitle')}</PageTitle>
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, sm: 4, md: 3 }}>
          <nav aria-labelledby="filter-apis">
            <Title order={2} size="h5" id="filter-apis" mb="sm">
              {t('products.filterTitle')}
            </Title>
            <NavLink
              component="button"
              label={t('products.allCategories')}
              active={!filterValue}
              aria-current={!filterValue ? 'true' : undefined}
              onClick={() => choose(null)}
            />
            {(categories.data?.data ?? []).map((c) => (
              <NavLink
                key={c.id}
                component="button"
                label={c.attributes.name}
                active={filterValue === c.id}
                aria-current={filterValue === c.id ? 'true' : undefined}
                onClick={() => choose({ id: c.id, name: c.attributes.name })}
              />
            ))}
          </nav>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8, md: 9 }}>
          {products.isPending ? (
            <Loading />
          ) : products.isError ? (
            <Alert color="red" role="alert">
              {messageOf(products.error, t('products.loadFailed'))}
            </Alert>
          ) : products.data.data.length === 0 ? (
            <Text>{t('products.noProducts')}</Text>
          ) : (
            <Stack gap="xl">
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="product-list">
                {products.data.data.map((p) => (
                  <ProductCard key={p.id} product={p} image={included.image(p, 'field_image')} />
                ))}
              </SimpleGrid>
              {pages > 1 && (
                <Pagination
                  total={pages}
                  value={page + 1}
                  onChange={(p) => goToPage(p - 1)}
                  getControlProps={(control) => ({ 'aria-label': `${control} page` })}
                  aria-label={t('products.pagination')}
                />
              )}
            </Stack>
          )}
        </Grid.Col>
      </Grid>
    </Container>
  );
}
