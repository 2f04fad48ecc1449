import { Alert, Anchor, Badge, Button, Group, NativeSelect, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { UserSort } from '@portico/contracts/console-users';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';
import { ConsolePage } from '../console/console-layout';
import { PAGE_SIZE, fetchUsers, userKeys } from './api';
import { RoleBadges } from './role-badges';

/** /admin/users: every account, searchable by name or e-mail, paged; each leads to its page. */
export default function UsersPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="administrator" title={t('console.users.title')}>
      <UserList />
    </ConsolePage>
  );
}

function UserList() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [sort, setSort] = useState<UserSort>('newest');
  const [offset, setOffset] = useState(0);
  const users = useQuery({
    queryKey: userKeys.list(q, sort, offset),
    queryFn: () => fetchUsers(q, sort, offset),
    placeholderData: keepPreviousData,
  });
  const count = users.data?.meta.count ?? 0;
  const page = Math.floor(offset / PAGE_SIZE) + 1;
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));

  return (
    <>
      <Text mb="md">{t('console.users.intro')}</Text>
      <Group align="flex-end" mb="md">
        <TextInput
          type="search"
          label={t('console.users.searchLabel')}
          placeholder={t('console.users.searchPlaceholder')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setOffset(0);
          }}
          w={{ base: '100%', sm: 320 }}
        />
        <NativeSelect
          label={t('console.users.sortLabel')}
          value={sort}
          onChange={(e) => {
            setSort(e.currentTarget.value === 'name' ? 'name' : 'newest');
            setOffset(0);
          }}
          data={[
            { value: 'newest', label: t('console.users.sortNewest') },
            { value: 'name', label: t('console.users.sortName') },
          ]}
        />
      </Group>
      {users.isPending ? (
        <Loading />
      ) : users.isError ? (
        <Alert color="red" role="alert">
          {messageOf(users.error, t('errors.somethingWentWrong'))}
        </Alert>
      ) : (
        <>
          <Text size="sm" c="dimmed" mb="xs" role="status">
            {t('console.users.count', { count })}
          </Text>
          {users.data.data.length === 0 ? (
            <Text>{t('console.users.empty')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={800}>
              <Table striped data-testid="console-users">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('console.users.columns.name')}</Table.Th>
                    <Table.Th>{t('console.users.columns.email')}</Table.Th>
                    <Table.Th>{t('console.users.columns.organizations')}</Table.Th>
                    <Table.Th>{t('console.users.columns.lastSignIn')}</Table.Th>
                    <Table.Th>{t('console.users.columns.status')}</Table.Th>
                    <Table.Th>{t('console.users.columns.roles')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {users.data.data.map((u) => (
                    <Table.Tr key={u.id}>
                      <Table.Td>
                        <Anchor component={Link} to={paths.adminUser(u.id)}>
                          {u.attributes.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{u.attributes.email}</Table.Td>
                      <Table.Td>{u.attributes.organizations.join(', ') || t('console.users.none')}</Table.Td>
                      <Table.Td>
                        {u.attributes.lastSignIn
                          ? formatDateTime(u.attributes.lastSignIn)
                          : t('console.users.never')}
                      </Table.Td>
                      <Table.Td>
                        {u.attributes.blocked ? (
                          <Badge color="red.9">{t('console.users.blocked')}</Badge>
                        ) : (
                          <Badge color="green" variant="light">
                            {t('console.users.active')}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <RoleBadges roles={u.attributes.providerRoles} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pages > 1 && (
            <Group mt="md" justify="space-between">
              <Button
                variant="default"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
              >
                {t('console.users.previous')}
              </Button>
              <Text size="sm">{t('console.users.pageOf', { page, pages })}</Text>
              <Button
                variant="default"
                disabled={offset + PAGE_SIZE >= count}
                onClick={() => setOffset(offset + PAGE_SIZE)}
              >
                {t('console.users.next')}
              </Button>
            </Group>
          )}
        </>
      )}
    </>
  );
}
