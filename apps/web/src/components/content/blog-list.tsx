import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Image,
  MultiSelect,
  Pagination,
  Pill,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { BLOG_PAGE_SIZE } from '@portico/contracts/constants';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { Loading } from '../ui/loading';
import { useArticles, useNewsCategories, type Article } from './articles';
import { AuthorAvatar } from './author-avatar';
import { langOf } from './translation';
import { ddmmyyyy } from './date';

/** How many posts the embedded block view shows. */
const BLOCK_SIZE = 3;

function ArticleCard({ article }: { article: Article }) {
  const [imageFailed, setImageFailed] = useState(false);
  return (
    <Card withBorder padding="lg" component="article" data-testid="article-card">
      {article.image && !imageFailed && (
        <Card.Section>
          <Image
            src={article.image.url}
            alt={article.image.alt}
            h={160}
            fit="cover"
            onError={() => setImageFailed(true)}
          />
        </Card.Section>
      )}
      <Group justify="space-between" mt="md" gap="xs">
        {article.category && (
          <Badge variant="light" size="sm" lang={langOf(article.category.translation)}>
            {article.category.name}
          </Badge>
        )}
        <Text size="xs" c="dimmed">
          {ddmmyyyy(article.created)}
        </Text>
      </Group>
      <Title order={2} size="h4" mt="xs">
        <Anchor component={Link} to={article.url} inherit>
          {article.title}
        </Anchor>
      </Title>
      {article.description && (
        <Text size="sm" mt="xs" lineClamp={3}>
          {article.description}
        </Text>
      )}
      {article.author && (
        <Group mt="md">
          <AuthorAvatar name={article.author.name} imageUrl={article.author.image} size={28} />
        </Group>
      )}
    </Card>
  );
}

/**
 * The blog list (spec B 2.4): on the full page a search box, a category dropdown with removable
 * chips and a pager of 5; in the embedded 'block' view the latest posts with 'VIEW ALL BLOGS' and
 * no pager. Changing the filter or the search goes back to the first page.
 */
export function BlogList({ mode, internal = false }: { mode: 'page' | 'block'; internal?: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [categories, setCategories] = useState<string[]>([]);
  const categoryList = useNewsCategories();
  const categoryField = useRef<HTMLInputElement>(null);
  const block = mode === 'block';
  const articles = useArticles(
    block
      ? { page: 0, limit: BLOCK_SIZE, internal: false }
      : { page, search: debounced, categories, internal },
  );

  const list = articles.data?.articles ?? [];
  const pages = Math.ceil((articles.data?.count ?? 0) / BLOG_PAGE_SIZE);
  return (
    <Stack gap="lg">
      {!block && (
        <Group align="end" gap="md" grow preventGrowOverflow={false}>
          <TextInput
            label={t('content.searchArticles')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(0);
            }}
            type="search"
          />
          <MultiSelect
            label={t('content.categories')}
            placeholder={categories.length ? undefined : t('content.chooseCategories')}
            data={(categoryList.data ?? []).map((c) => ({ value: c.uuid, label: c.name }))}
            value={categories}
            onChange={(v) => {
              setCategories(v);
              setPage(0);
            }}
            clearable
            searchable
            data-testid="category-filter"
            ref={categoryField}
            // Mantine hides its chips' remove buttons from screen readers and the Tab key (Backspace
            // in the field removes the last one): ours are labelled buttons in the tab order. A
            // chip removed from the keyboard (a click without a pointer, detail 0) gives the focus
            // to the field, since its button is gone.
            renderPill={({ option, value, onRemove, disabled }) => (
              <Pill
                withRemoveButton={!disabled}
                onRemove={onRemove}
                removeButtonProps={{
                  'aria-hidden': false,
                  tabIndex: 0,
                  'aria-label': t('content.removeCategory', { name: option?.label ?? String(value) }),
                  onClick: (event) => {
                    if (event.detail === 0) categoryField.current?.focus();
                  },
                }}
              >
                {option?.label ?? value}
              </Pill>
            )}
          />
        </Group>
      )}
      {articles.isPending ? (
        <Loading />
      ) : list.length === 0 ? (
        <Text data-testid="no-articles">{t('content.noArticles')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="article-list">
          {list.map((a) => (
            <ArticleCard key={a.uuid} article={a} />
          ))}
        </SimpleGrid>
      )}
      {block ? (
        <Group>
          <Button component={Link} to={paths.blog} variant="light">
            {t('content.viewAllBlogs')}
          </Button>
        </Group>
      ) : (
        pages > 1 && (
          <Group justify="center">
            <Pagination
              total={pages}
              value={page + 1}
              onChange={(p) => {
                setPage(p - 1);
                window.scrollTo({ top: 0 });
              }}
              getControlProps={(control) => ({
                'aria-label':
                  control === 'next'
                    ? t('layout.nextPage')
                    : control === 'previous'
                      ? t('layout.previousPage')
                      : undefined,
              })}
              getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
              aria-label={t('content.blogPages')}
            />
          </Group>
        )
      )}
    </Stack>
  );
}
