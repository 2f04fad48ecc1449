import { Alert, Button, Checkbox, Group, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n';
import { issueText } from '../../components/forms/zod-text';
import {
  ORGANIZATION_ROLE_IDS,
  OWNER_ROLE_ID,
  memberRolesSchema,
  type OrganizationRoleId,
} from '@portico/contracts/organizations';
import { messageOf } from '../../lib/api-client';
import { setMemberRoles, type MemberResource, type RoleResource } from './api';

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((r) => b.includes(r));

/**
 * Editing a member's roles (spec A 5): at least one ('Select at least one role'); unchanged roles
 * send nothing; the creator's owner role cannot be unchecked. A refusal shows the server's text, else
 * 'Something went wrong try again later.' (spec A 8).
 */
export function EditRolesForm({
  member,
  roles,
  onSaved,
  onClose,
}: {
  member: MemberResource;
  roles: RoleResource[];
  onSaved: (member: MemberResource) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const initial = member.attributes.roles.filter((r): r is OrganizationRoleId =>
    (ORGANIZATION_ROLE_IDS as readonly string[]).includes(r),
  );
  const [selected, setSelected] = useState<OrganizationRoleId[]>(initial);
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: (value: OrganizationRoleId[]) => setMemberRoles(member.id, value),
    onSuccess: (updated) => {
      onSaved(updated);
      onClose();
    },
  });
  const parsed = memberRolesSchema.safeParse(selected);
  const error =
    touched && !parsed.success
      ? (parsed.error.issues[0] && issueText(parsed.error.issues[0])) || undefined
      : undefined;

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!parsed.success) return;
    if (sameRoles(parsed.data, initial)) {
      onClose();
      return;
    }
    save.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Checkbox.Group
          label={t('organizations.rolesLabel')}
          value={selected}
          onChange={(value) => {
            setSelected(value as OrganizationRoleId[]);
            setTouched(true);
          }}
          error={error}
          required
        >
          <Stack mt="xs" gap="xs">
            {roles.map((role) => (
              <Checkbox
                key={role.id}
                value={role.attributes.id}
                label={role.attributes.label}
                description={role.attributes.description}
                // Spec A 6: the creator always keeps the owner role.
                disabled={member.attributes.isCreator && role.attributes.id === OWNER_ROLE_ID}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        {save.isError && (
          <Alert color="red" role="alert">
            {messageOf(save.error, t('organizations.somethingWentWrong'))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('organizations.cancelButton')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('organizations.saveButton')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
