import { Alert, Badge, Button, Container, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { GET_TOKEN_API_TITLE } from '@portico/contracts/constants';
import { deepLinkedOperation } from '@portico/contracts/documentation-data';
import { Suspense, useEffect } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useParams, useSearchParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { RoleGuard } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { preloadMarkdown } from '../../components/ui/markdown';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import {
  downloadLinks,
  requestOperationEarly,
  useDocumentation,
  useOperationAnswered,
  useOperationIndex,
} from './api-documentation';
import { Included } from './api-jsonapi';
import type { ChangelogAttributes, ProductAttributes } from './api-products';
import { ChangelogList } from './changelog-list';
import { ApiReference } from './reference/api-reference';
import { aliasSlug, isUuid } from './text';
import { SubscribePanel } from './subscribe-panel';
import { TakeTheTour } from '../../components/take-the-tour';
import { lazyPage } from '../../lib/lazy-page';
import { chatBotUrl } from './chat-bot-url';
import { RevealApp, useFirstScreenOperation, useFirstScreenQuiet } from '../../lib/first-screen';

/** The chat bot block is its own chunk: only documentations with a bot load it. */
const ChatBotBlock = lazyPage(() => import('./chat-bot-block'));

/**
 * Reveals the app once the operation the server's first screen shows open (linked, or opened there
 * by the visitor) has its details, so that it stays open when the app takes over (decision 043).
 * A component of its own: the first screen's store and that query change while the app starts,
 * and each change re-renders (synchronously: external stores) this alone, not the whole page.
 * Nor does the takeover land right after the visitor's click on the first screen (decision 062):
 * what they opened is shown there already, and the takeover's long task would hold its paint back.
 */
function RevealWhenAnswered({ alias, contentHash }: { alias: string | undefined; contentHash?: string }) {
  const onFirstScreen = useFirstScreenOperation();
  const quiet = useFirstScreenQuiet();
  const answered = useOperationAnswered(alias, onFirstScreen, contentHash);
  return answered && quiet ? <RevealApp /> : null;
}

/** /documentation/:apiDocumentationId (spec B 2.12): a uuid, else the documentation's alias. */
export default function DocumentationPage() {
  return (
    <RoleGuard>
      <DocumentationScreen />
    </RoleGuard>
  );
}

function DocumentationScreen() {
  const { t } = useTranslation();
  const { apiDocumentationId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const doc = useDocumentation(apiDocumentationId);
  // An address with the alias (spec B 5: anything not in uuid format) asks for the operation index
  // at once, beside the documentation, rather than once the reference is rendered: one round trip
  // less before the operations are listed. The reference reads the same cached query.
  const alias = isUuid(apiDocumentationId) ? doc.data?.data.attributes.alias : apiDocumentationId;
  const index = useOperationIndex(alias);
  // A deep link's operation is asked for at the same moment (api-documentation.ts), unless the index
  // came before the first render (the route's preloadData): its query then asks for it at once.
  const indexIn = index.data !== undefined;
  useEffect(() => {
    const key = deepLinkedOperation(window.location.search, window.location.hash);
    if (key && !isUuid(apiDocumentationId) && !indexIn) requestOperationEarly(apiDocumentationId, key);
    // Once, as the page opens: the index arriving later is not a reason to ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [apiDocumentationId]);
  // The server's first screen (decision 043) stays until the page can show its reference (or why
  // it cannot): then the app takes its place in the same commit (RevealWhenAnswered).
  const settled = doc.data !== undefined && !index.isPending;
  // The reference's descriptions are Markdown: its renderer (own chunk) loads beside the data.
  useEffect(() => void preloadMarkdown().catch(() => undefined), []);

  if (doc.error instanceof ApiError && doc.error.status === 404) {
    return (
      <>
        <RevealApp />
        <NotFound />
      </>
    );
  }
  if (doc.isError) {
    return (
      <Container size="xl" py="xl">
        <RevealApp />
        <Alert color="red" role="alert">
          {messageOf(doc.error, t('catalog.swaggerNotFound'))}
        </Alert>
      </Container>
    );
  }
  if (!doc.data) return <Loading />;

  const d = doc.data.data;
  const a = d.attributes;
  const included = new Included(doc.data.included);
  const products = included.many<ProductAttributes>(d, 'field_products');
  const choices = products.map((p) => ({ id: p.id, title: p.attributes.title }));
  // The product: the one named in the address, else the only one; several need a choice.
  const asked = params.get('product');
  const chosen = products.find((p) => p.id === asked) ?? (products.length === 1 ? products[0] : undefined);
  const shown = chosen ?? products[0];
  const chooseProduct = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('product', id);
    setParams(next, { replace: true, preventScrollReset: true });
  };

  // The server gives the changelog of the documentation's own product (catalog README), whichever
  // product is chosen for subscribing.
  const changelog = included.many<ChangelogAttributes>(d, 'field_change_log');
  const links = downloadLinks(d);
  const productSlug = shown ? aliasSlug(shown.attributes.path?.alias) || shown.id : null;
  const format = (a.field_source_format ?? 'json').toUpperCase();
  const bot = a.field_bot_enabled ? chatBotUrl(a.field_bot_url) : null;

  return (
    <Container size="xl" py="xl">
      {/* First, so that the app is in the document before the reference below measures itself. */}
      {settled && <RevealWhenAnswered alias={alias} contentHash={index.data?.contentHash} />}
      {a.title !== GET_TOKEN_API_TITLE && shown && productSlug && (
        <PageBreadcrumbs
          items={[
            { title: t('products.breadcrumbProducts'), to: paths.apiProducts },
            { title: shown.attributes.title, to: paths.apiProduct(productSlug) },
            {
              title: t('products.breadcrumbDocumentation'),
              to: paths.apiProduct(productSlug, 'documentation'),
            },
            { title: a.title },
          ]}
        />
      )}
      <Grid gap="xl" mb="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Group gap="sm" align="center">
              <PageTitle mb={0}>{t('products.documentationTitle', { title: a.title })}</PageTitle>
              {a.field_deprecated && (
                <Badge color="red" size="lg" data-testid="deprecated-tag">
                  {t('products.deprecatedTag')}
                </Badge>
              )}
            </Group>
            <TakeTheTour title={a.title} tour={a.field_tour} />
            {a.field_version && <Text c="dimmed">{t('products.version', { version: a.field_version })}</Text>}
            <div>
              <Title order={2} size="h5" mb="xs" id="open-api-documentations">
                {t('products.openApiDocumentations')}
              </Title>
              <Group gap="xs" role="group" aria-labelledby="open-api-documentations">
                <Button
                  component="a"
                  href={links.original}
                  download
                  variant="default"
                  leftSection={<IconDownload size={16} />}
                >
                  {t('products.downloadOriginal', { format })}
                </Button>
                <Button
                  component="a"
                  href={links.json}
                  download
                  variant="default"
                  leftSection={<IconDownload size={16} />}
                >
                  {t('products.downloadJson')}
                </Button>
                <Button
                  component="a"
                  href={links.yaml}
                  download
                  variant="default"
                  leftSection={<IconDownload size={16} />}
                >
                  {t('products.downloadYaml')}
                </Button>
              </Group>
            </div>
            {changelog.length > 0 && (
              <section aria-labelledby="doc-changelog">
                <Title order={2} size="h4" id="doc-changelog" mb="sm">
                  {t('products.changelog')}
                </Title>
                <ChangelogList entries={changelog} />
              </section>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <SubscribePanel
            products={choices}
            productId={chosen?.id ?? null}
            onChooseProduct={chooseProduct}
            plan={a.field_plan || t('catalog.defaultPlan')}
          />
        </Grid.Col>
      </Grid>
      <ApiReference alias={a.alias} />
      {bot && (
        <Suspense fallback={null}>
          <ChatBotBlock botUrl={bot} documentationAlias={a.alias} documentationTitle={a.title} />
        </Suspense>
      )}
    </Container>
  );
}
