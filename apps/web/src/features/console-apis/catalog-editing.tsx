import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { RevisionsPanel } from '../console/editing';
import { EditorConflict, type VersionedEditor } from '../console/versioned-editor';

/**
 * What the catalog's versioned forms (API products, comparison tables) share beside the console's
 * versioned editing: a delete confirmed in a dialog that leaves for the products' page, which says
 * what went; and the preview with the revisions under it.
 */
export function useCatalogDelete(options: {
  remove(): Promise<unknown>;
  /** The query keys the delete makes stale (the lists). */
  lists: readonly (readonly string[])[];
  /** What the products' page says after it. */
  deleted: string;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: options.remove,
    onSuccess: async () => {
      setConfirming(false);
      for (const key of options.lists) await client.invalidateQueries({ queryKey: key });
      await navigate(paths.adminApis, { state: { notice: options.deleted } });
    },
    onError: (err) => {
      setConfirming(false);
      setError(messageOf(err, t('errors.somethingWentWrong')));
    },
  });
  return {
    confirming,
    ask: () => setConfirming(true),
    cancel: () => setConfirming(false),
    error,
    /** Forgets the delete's failure (a save is under way). */
    clear: () => setError(null),
    deleting: mutation.isPending,
    confirm: () => mutation.mutate(),
  };
}

/** The dialog that confirms a delete. */
export function DeleteDialog({
  remove,
  texts,
}: {
  remove: ReturnType<typeof useCatalogDelete>;
  texts: { title: string; text: string; cancel: string; confirm: string };
}) {
  return (
    <Modal opened={remove.confirming} onClose={remove.cancel} title={texts.title}>
      <Text size="sm" mb="md">
        {texts.text}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={remove.cancel}>
          {texts.cancel}
        </Button>
        <Button color="red" loading={remove.deleting} onClick={remove.confirm}>
          {texts.confirm}
        </Button>
      </Group>
    </Modal>
  );
}

/** Beside the form: the preview, and a saved item's revisions under it. */
export function PreviewAndRevisions<T extends { id: string; version: number }, F, C extends string, V>({
  editor,
  labelOf,
  testId,
  children,
}: {
  editor: VersionedEditor<T, F, C, V>;
  labelOf(field: C): string;
  /** Names the revisions (`${testId}-revisions`). */
  testId: string;
  children: ReactNode;
}) {
  return (
    <Stack style={{ flex: '0 1 420px' }}>
      {children}
      {editor.item && (
        <RevisionsPanel
          id={editor.item.id}
          version={editor.version}
          source={editor.source.revisions}
          labelOf={labelOf}
          onRestored={editor.restored}
          testId={`${testId}-revisions`}
        />
      )}
    </Stack>
  );
}

/**
 * A saved item's name (`children`), version and whether the form has unsaved changes; under it
 * the conflict of a stale save (reload theirs or save over it), in the words of `messages`.
 */
export function VersionLine<T extends { id: string; version: number }, F, C extends string, V>({
  editor,
  labelOf,
  testId,
  messages,
  children,
}: {
  editor: VersionedEditor<T, F, C, V>;
  labelOf(field: C): string;
  /** Names the version (`${testId}-version`), the unsaved mark and the conflict. */
  testId: string;
  messages: 'console.products.editor' | 'console.products.comparison';
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {children}
        </Text>
        <Text size="sm" c="dimmed" data-testid={`${testId}-version`}>
          {t(`${messages}.version`, { version: editor.version })}
        </Text>
        {editor.dirty && (
          <Text size="sm" c="dimmed" data-testid={`${testId}-unsaved`}>
            {t('console.content.editor.unsaved')}
          </Text>
        )}
      </Group>
      <EditorConflict
        editor={editor}
        labelOf={labelOf}
        title={t(`${messages}.conflictTitle`)}
        text={(version) => t(`${messages}.conflictText`, { version })}
        testId={`${testId}-conflict`}
      />
    </>
  );
}
