import { Alert, Button, Group, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { formatDay } from '../../lib/text';
import { ConsolePage } from '../console/console-layout';
import { addStaff, fetchStaff, removeStaff, ticketKeys } from './api';

/**
 * /admin/support/staff: administrators list, add (by the e-mail address of an existing account)
 * and remove support staff, the accounts besides the administrators that handle the queue.
 */
export default function AdminStaffPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="administrator" title={t('support.staffTitle')}>
      <StaffManager />
    </ConsolePage>
  );
}

function StaffManager() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const staff = useQuery({ queryKey: ticketKeys.staff, queryFn: fetchStaff });
  const [email, setEmail] = useState('');
  // What the last change did, announced to screen readers.
  const [done, setDone] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: ticketKeys.staff });
  const add = useMutation({
    mutationFn: addStaff,
    onSuccess: async (member) => {
      setEmail('');
      setDone(t('support.staffAdded', { name: member.name }));
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (member: { uuid: string; name: string }) => removeStaff(member.uuid),
    onSuccess: async (_r, member) => {
      setDone(t('support.staffRemoved', { name: member.name }));
      await refresh();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone('');
    remove.reset();
    add.mutate(email.trim());
  };

  return (
    <>
      <PageBreadcrumbs
        items={[
          { title: t('support.queueTitle'), to: paths.adminSupport },
          { title: t('support.staffTitle') },
        ]}
      />
      <Text mb="lg">{t('support.staffIntro')}</Text>
      <form onSubmit={submit} noValidate aria-label={t('support.staffAdd')}>
        <Group align="flex-start" mb="lg">
          <TextInput
            label={t('support.staffEmail')}
            type="email"
            autoComplete="off"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              add.reset();
            }}
            w={{ base: '100%', sm: 360 }}
          />
          <Button type="submit" mt={{ base: 0, sm: 25 }} loading={add.isPending}>
            {t('support.staffAdd')}
          </Button>
        </Group>
      </form>
      {add.isError && (
        <Alert color="red" role="alert" mb="md">
          {messageOf(add.error, t('support.loadFailed'))}
        </Alert>
      )}
      <Text role="status" mb="md">
        {done}
      </Text>
      {remove.isError && (
        <Alert color="red" role="alert" mb="md">
          {messageOf(remove.error, t('support.loadFailed'))}
        </Alert>
      )}
      {staff.isPending ? (
        <Loading />
      ) : staff.isError ? (
        <Alert color="red" role="alert">
          {messageOf(staff.error, t('support.loadFailed'))}
        </Alert>
      ) : staff.data.length === 0 ? (
        <Text>{t('support.staffNone')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('support.staffName')}</Table.Th>
                <Table.Th>{t('support.staffMail')}</Table.Th>
                <Table.Th>{t('support.staffSince')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('support.staffRemove')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {staff.data.map((member) => (
                <Table.Tr key={member.uuid}>
                  <Table.Td>{member.name}</Table.Td>
                  <Table.Td>{member.email}</Table.Td>
                  <Table.Td>{formatDay(member.added)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      aria-label={t('support.staffRemoveLabel', { name: member.name })}
                      loading={remove.isPending && remove.variables?.uuid === member.uuid}
                      onClick={() => {
                        setDone('');
                        add.reset();
                        remove.mutate(member);
                      }}
                    >
                      {t('support.staffRemove')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
