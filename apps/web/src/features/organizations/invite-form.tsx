import { ActionIcon, Alert, Button, Checkbox, Fieldset, Group, Stack, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n';
import { issueText } from '../../components/forms/zod-text';
import { afterPress } from '../../lib/touched';
import { inviteMemberSchema, type OrganizationRoleId } from '@portico/contracts/organizations';
import { ApiError, messageOf } from '../../lib/api-client';
import { inviteMember, type RoleResource } from './api';
import { errorsByPointer } from './parts';

interface Row {
  key: number;
  email: string;
  roles: OrganizationRoleId[];
  touched: { email: boolean; roles: boolean };
  server: { email?: string; roles?: string; other?: string };
}

const emptyRow = (key: number): Row => ({
  key,
  email: '',
  roles: [],
  touched: { email: false, roles: false },
  server: {},
});

function rowErrors(row: Row): { email?: string; roles?: string } {
  const parsed = inviteMemberSchema.safeParse({ email: row.email, roles: row.roles });
  if (parsed.success) return {};
  const out: { email?: string; roles?: string } = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] === 'email' ? 'email' : 'roles';
    out[field] ??= issueText(issue);
  }
  return out;
}

/**
 * The invite form (spec A 5): several member rows, each an e-mail and one or more roles. The first
 * row cannot be removed. Validation runs on blur and on submit ('Please enter a valid email',
 * 'Select one or more roles for this member'). Rows are sent one by one; rows the server accepts
 * leave the form, refused rows stay with the server's message (spec A 8: the response, else
 * 'Something went wrong try again later.').
 */
export function InviteForm({
  organizationId,
  roles,
  onInvited,
  onDone,
}: {
  organizationId: string;
  roles: RoleResource[];
  onInvited: (emails: string[]) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const nextKey = useRef(1);
  const [rows, setRows] = useState<Row[]>([emptyRow(0)]);
  const [sending, setSending] = useState(false);

  const change = (key: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  // A row's message shows once its field is left, never under a pressed pointer (lib/touched.ts).
  const touch = (key: number, field: 'email' | 'roles') =>
    afterPress(() =>
      setRows((rs) =>
        rs.map((r) => (r.key === key ? { ...r, touched: { ...r.touched, [field]: true } } : r)),
      ),
    );

  async function submit(e: FormEvent) {
    e.preventDefault();
    const all = rows.map((r) => ({ ...r, touched: { email: true, roles: true }, server: {} }));
    setRows(all);
    if (all.some((r) => Object.keys(rowErrors(r)).length)) return;
    setSending(true);
    const invited: string[] = [];
    const left: Row[] = [];
    for (const row of all) {
      const email = row.email.trim();
      try {
        await inviteMember(organizationId, email, row.roles);
        invited.push(email);
      } catch (error) {
        const byPointer = error instanceof ApiError ? errorsByPointer(error.body) : new Map<string, string>();
        const emailError = byPointer.get('/email');
        const rolesError = byPointer.get('/group_roles');
        left.push({
          ...row,
          server: {
            email: emailError,
            roles: rolesError,
            other:
              emailError || rolesError ? undefined : messageOf(error, t('organizations.somethingWentWrong')),
          },
        });
      }
    }
    setSending(false);
    if (invited.length) onInvited(invited);
    if (!left.length) {
      onDone();
      return;
    }
    setRows(left);
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack>
        {rows.map((row, index) => {
          const errors = rowErrors(row);
          const emailError = row.touched.email ? (errors.email ?? row.server.email) : row.server.email;
          const rolesError = row.touched.roles ? (errors.roles ?? row.server.roles) : row.server.roles;
          const number = index + 1;
          return (
            <Fieldset key={row.key} legend={t('organizations.memberRow', { number })}>
              <Stack gap="sm">
                <Group align="flex-start" wrap="nowrap">
                  <TextInput
                    type="email"
                    label={t('organizations.emailLabel')}
                    value={row.email}
                    onChange={(ev) =>
                      change(row.key, {
                        email: ev.currentTarget.value,
                        server: { ...row.server, email: undefined },
                      })
                    }
                    onBlur={() => touch(row.key, 'email')}
                    error={emailError}
                    required
                    style={{ flex: 1 }}
                  />
                  {index > 0 && (
                    <ActionIcon
                      mt={28}
                      variant="subtle"
                      color="red"
                      aria-label={t('organizations.removeMemberRow', { number })}
                      onClick={() => setRows((rs) => rs.filter((r) => r.key !== row.key))}
                    >
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  )}
                </Group>
                <Checkbox.Group
                  label={t('organizations.rolesLabel')}
                  value={row.roles}
                  onChange={(value) =>
                    change(row.key, {
                      roles: value as OrganizationRoleId[],
                      touched: { ...row.touched, roles: true },
                      server: { ...row.server, roles: undefined },
                    })
                  }
                  error={rolesError}
                  required
                >
                  <Group mt="xs" gap="md">
                    {roles.map((role) => (
                      <Checkbox
                        key={role.id}
                        value={role.attributes.id}
                        label={role.attributes.label}
                        onBlur={() => touch(row.key, 'roles')}
                      />
                    ))}
                  </Group>
                </Checkbox.Group>
                {row.server.other && (
                  <Alert color="red" role="alert">
                    {row.server.other}
                  </Alert>
                )}
              </Stack>
            </Fieldset>
          );
        })}
        <Group justify="space-between">
          <Button
            variant="default"
            onClick={() => setRows((rs) => [...rs, emptyRow(nextKey.current++)])}
            disabled={sending}
          >
            {t('organizations.addMemberRow')}
          </Button>
          <Button type="submit" loading={sending}>
            {t('organizations.sendInvitations')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
