import { Alert, Badge, Box, Button, Container, Group, Stack } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { Link, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { RoleGuard } from '../../components/require-login';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { Included } from './api-jsonapi';
import { useProduct, useProductUuid } from './api-products';
import classes from './products.module.css';
import { aliasSlug } from './text';
import { DeprecatedPopup } from './deprecated-popup';
import { ProductDocumentations } from './product-documentations';
import { ProductOverview } from './product-overview';
import { langOf } from '../../components/content/translation';
import { TranslationNote } from '../../components/content/translation-note';

const VIEW_MODES = [undefined, 'documentation'];

/** /apiProduct/:apiProductId/:viewMode? (spec B 2.11): by uuid or path alias; open to everyone. */
export default function ProductPage() {
  return (
    <RoleGuard>
      <ProductScreen />
    </RoleGuard>
  );
}

function ProductScreen() {
  const { t } = useTranslation();
  const { apiProductId = '', viewMode } = useParams();
  const uuid = useProductUuid(apiProductId);
  const product = useProduct(uuid.data);

  if (!VIEW_MODES.includes(viewMode)) return <NotFound />;
  const error = uuid.error ?? product.error;
  if (error instanceof ApiError && error.status === 404) return <NotFound />;
  if (error) {
    return (
      <Container size="xl" py="xl">
        <Alert color="red" role="alert">
          {messageOf(error, t('errors.somethingWentWrong'))}
        </Alert>
      </Container>
    );
  }
  if (!product.data) return <Loading />;

  const p = product.data.data;
  const a = p.attributes;
  const included = new Included(product.data.included);
  const headerImage = included.image(p, 'field_header_image');
  const slug = aliasSlug(a.path?.alias) || p.id;
  const documentationView = viewMode === 'documentation';

  return (
    <>
      {headerImage && (
        <Box bg="gray.1">
          <img src={headerImage.url} alt={headerImage.alt} className={classes.headerImage} />
        </Box>
      )}
      <Container size="xl" py="xl">
        <PageBreadcrumbs
          items={[
            { title: t('products.breadcrumbProducts'), to: paths.apiProducts },
            { title: a.title, to: paths.apiProduct(slug) },
            ...(documentationView ? [{ title: t('products.breadcrumbDocumentation') }] : []),
          ]}
        />
        <TranslationNote marker={p.meta?.translation} />
        <Stack gap="xs" mb="lg">
          <PageTitle mb={0} lang={langOf(p.meta?.translation)}>
            {a.title}
          </PageTitle>
          <Group gap="xs">
            {a.field_version && (
              <Badge variant="outline">{t('products.version', { version: a.field_version })}</Badge>
            )}
            {a.field_label && <Badge variant="light">{a.field_label}</Badge>}
            {a.field_deprecated && <Badge color="red">{t('products.deprecatedTag')}</Badge>}
          </Group>
        </Stack>
        <Group gap="xs" mb="xl" role="navigation" aria-label={t('products.productViews')}>
          <Button
            component={Link}
            to={paths.apiProduct(slug)}
            variant={documentationView ? 'default' : 'filled'}
            aria-current={documentationView ? undefined : 'page'}
          >
            {t('products.overviewTab')}
          </Button>
          {!a.field_disable_documentation && (
            <Button
              component={Link}
              to={paths.apiProduct(slug, 'documentation')}
              variant={documentationView ? 'filled' : 'default'}
              aria-current={documentationView ? 'page' : undefined}
            >
              {t('products.documentationTab')}
            </Button>
          )}
        </Group>
        {a.body?.processed && !documentationView && (
          <HtmlContent html={a.body.processed} mb="xl" lang={langOf(p.meta?.translation)} />
        )}
        {documentationView ? (
          <ProductDocumentations product={p} included={included} />
        ) : (
          <ProductOverview product={p} included={included} />
        )}
      </Container>
      {a.field_deprecated && <DeprecatedPopup key={p.id} productId={p.id} />}
    </>
  );
}
