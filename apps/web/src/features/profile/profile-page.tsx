import { Alert, Button, Container, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { apiRequest, messageOf } from '../../lib/api-client';
import { useAppStore, useUser } from '../../lib/store';

interface UserResource {
  id: string;
  attributes: {
    name: string;
    mail?: string;
    field_first_name: string | null;
    field_last_name: string | null;
  };
}

/** My Profile: the signed-in user's name and e-mail, with the name editable (PATCH /jsonapi/user/user/{uuid}). */
export default function ProfilePage() {
  return (
    <RequireLogin>
      <Profile />
    </RequireLogin>
  );
}

function Profile() {
  const { t } = useTranslation();
  const user = useUser();
  const query = useQuery({
    queryKey: ['user', user.uid],
    queryFn: async () => {
      const doc = await apiRequest<{ data: UserResource[] }>('/jsonapi/user/user', {
        query: { 'filter[drupal_internal__uid]': user.uid ?? 0 },
      });
      const found = doc.data[0];
      if (!found) throw new Error(t('errors.somethingWentWrong'));
      return found;
    },
  });
  return (
    <Container size="sm" py="xl">
      <PageTitle>{t('user.myProfile')}</PageTitle>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('errors.somethingWentWrong'))}
        </Alert>
      ) : (
        <ProfileForm key={query.data.id} resource={query.data} />
      )}
    </Container>
  );
}

function ProfileForm({ resource }: { resource: UserResource }) {
  const { t } = useTranslation();
  const user = useUser();
  const queryClient = useQueryClient();
  const [first, setFirst] = useState(resource.attributes.field_first_name ?? '');
  const [last, setLast] = useState(resource.attributes.field_last_name ?? '');

  const save = useMutation({
    mutationFn: () =>
      apiRequest<{ data: UserResource }>(`/jsonapi/user/user/${user.uuid ?? ''}`, {
        method: 'PATCH',
        body: {
          data: {
            type: 'user--user',
            id: user.uuid,
            attributes: { field_first_name: first.trim(), field_last_name: last.trim() },
          },
        },
      }),
    onSuccess: (doc) => {
      useAppStore.setState((s) => ({
        applicationUser: { ...s.applicationUser, name: doc.data.attributes.name },
      }));
      void queryClient.invalidateQueries({ queryKey: ['user', user.uid] });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!first.trim() || !last.trim()) return;
    save.mutate();
  }

  return (
    <Paper withBorder p="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text>
            {t('profile.email')}: <strong>{user.mail}</strong>
          </Text>
          <TextInput
            label={t('profile.firstName')}
            value={first}
            onChange={(e) => setFirst(e.currentTarget.value)}
            error={first.trim() ? undefined : t('form.required')}
            required
          />
          <TextInput
            label={t('profile.lastName')}
            value={last}
            onChange={(e) => setLast(e.currentTarget.value)}
            error={last.trim() ? undefined : t('form.required')}
            required
          />
          <div>
            <Button type="submit" loading={save.isPending}>
              {t('profile.save')}
            </Button>
          </div>
          {save.isSuccess && (
            <Alert color="green" role="status">
              {t('profile.saved')}
            </Alert>
          )}
          {save.isError && (
            <Alert color="red" role="alert">
              {messageOf(save.error, t('errors.somethingWentWrong'))}
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
