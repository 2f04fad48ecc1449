import { Alert, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRequest, messageOf } from '../../lib/api-client';
import { useTranslation, type MessageKey } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';

/** An entry of the organization's part of the audit log (no address; the provider unnamed). */
interface ActivityEntry {
  id: string;
  attributes: {
    at: string;
    action: string;
    actor: { id: string | null; email: string | null; provider: boolean };
    targetType: string;
    targetId: string | null;
    targetLabel: string | null;
  };
}
interface ActivityList {
  data: ActivityEntry[];
  meta: { count: number };
  links: { next?: { href: string }; prev?: { href: string } };
}

const PAGE_SIZE = 10;

/**
 * How an action reads in the page's language (organizations.activity.actions, the same words as
 * contracts' audit-actions.ts in English); an action without words is shown as its name.
 */
function actionLabel(t: (key: MessageKey) => string, action: string): string {
  const key = `organizations.activity.actions.${action}` as MessageKey;
  const label = t(key);
  return label === key ? action : label;
}

/**
 * The organization's activity for its owners (issue 27): its part of the audit log, newest first,
 * ten at a time. A chunk of its own, loaded when an owner asks (organization-page.tsx).
 */
export default function OrganizationActivity({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const query = useQuery({
    queryKey: ['organization-activity', organizationId, page],
    queryFn: () =>
      apiRequest<ActivityList>(`/jsonapi/group/organization/${encodeURIComponent(organizationId)}/audit`, {
        query: { 'page[limit]': PAGE_SIZE, 'page[offset]': page * PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const pages = Math.max(1, Math.ceil((query.data?.meta.count ?? 0) / PAGE_SIZE));
  return (
    <Stack gap="sm">
      <Text size="sm">{t('organizations.activity.intro')}</Text>
      {query.isPending ? (
        <Loader size="sm" aria-label={t('organizations.activity.title')} />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('organizations.somethingWentWrong'))}
        </Alert>
      ) : query.data.data.length === 0 ? (
        <Text>{t('organizations.activity.empty')}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={560}>
            <Table striped data-testid="organization-activity">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('organizations.activity.columnWhen')}</Table.Th>
                  <Table.Th>{t('organizations.activity.columnWho')}</Table.Th>
                  <Table.Th>{t('organizations.activity.columnAction')}</Table.Th>
                  <Table.Th>{t('organizations.activity.columnTarget')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.data.map((e) => {
                  const a = e.attributes;
                  return (
                    <Table.Tr key={e.id}>
                      <Table.Td>
                        <time dateTime={a.at}>{formatDateTime(a.at)}</time>
                      </Table.Td>
                      <Table.Td>
                        {a.actor.provider
                          ? t('organizations.activity.provider')
                          : (a.actor.email ?? t('organizations.activity.anonymous'))}
                      </Table.Td>
                      <Table.Td>{actionLabel(t, a.action)}</Table.Td>
                      <Table.Td>{a.targetLabel ?? a.targetId ?? a.targetType}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 && (
            <Group justify="center" component="nav" aria-label={t('organizations.activity.pages')}>
              <Button variant="default" disabled={!query.data.links.prev} onClick={() => setPage(page - 1)}>
                {t('organizations.previousPage')}
              </Button>
              <Text size="sm">{t('organizations.pageOf', { page: page + 1, pages })}</Text>
              <Button variant="default" disabled={!query.data.links.next} onClick={() => setPage(page + 1)}>
                {t('organizations.nextPage')}
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
