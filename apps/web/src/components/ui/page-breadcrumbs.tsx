import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';
import { t } from '../../lib/i18n';

export interface Crumb {
  title: string;
  to?: string;
}

/** Breadcrumb trail (spec B 2.14); the last crumb is the current page and is not a link. */
export function PageBreadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label={t('layout.breadcrumb')}>
      <Breadcrumbs mb="md" separator="/">
        {items.map((c, i) =>
          c.to && i < items.length - 1 ? (
            <Anchor key={`${c.title}-${i}`} component={Link} to={c.to} size="sm">
              {c.title}
            </Anchor>
          ) : (
            <Text
              key={`${c.title}-${i}`}
              size="sm"
              aria-current={i === items.length - 1 ? 'page' : undefined}
            >
              {c.title}
            </Text>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}
