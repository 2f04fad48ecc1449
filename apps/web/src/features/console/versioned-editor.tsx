import { Alert, Box, Button, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import type { FieldChange } from '@portico/contracts/console-pages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { ConflictPanel, RevisionsPanel, type RevisionsSource } from './editing';
import { conflictOf, fromLocalInput, isDirty, toLocalInput } from './versioned';
import type { versionedApi } from './versioned-api';
import { StateBadge, type STATE_COLORS } from './versioned-list';

type State = keyof typeof STATE_COLORS;

/**
 * The console's versioned editing, one way for every kind of item (articles, pages, FAQ questions,
 * Quick Start stories): load the item, keep its version, save with it (PATCH, or POST for a new
 * one), a 409 shown as what the version saved meanwhile changed (reload theirs or save over it),
 * the revisions with their comparison and restore, and whether the form has unsaved changes (the
 * browser asks before the tab is closed or the console left through a link).
 */

export interface Versioned {
  id: string;
  version: number;
}

/** The calls of one kind of versioned item. */
export interface VersionedSource<T extends Versioned, F, C extends string> {
  /** The query key of one item, e.g. 'console-page'. */
  key: string;
  /** The query keys a save, a restore or a delete makes stale (the lists). */
  lists: readonly string[];
  get(id: string): Promise<{ data: T }>;
  create(fields: F): Promise<{ data: T }>;
  save(id: string, fields: F, version: number): Promise<{ data: T }>;
  remove(id: string, version: number): Promise<unknown>;
  revisions: RevisionsSource<T, C>;
}

/** A kind of item's source from its calls (versioned-api.ts) and its query keys. */
export function versionedSource<T extends Versioned, F>(
  api: Pick<
    ReturnType<typeof versionedApi<T, F, unknown>>,
    'get' | 'create' | 'save' | 'remove' | 'listRevisions' | 'getRevision' | 'restoreRevision'
  >,
  keys: { key: string; lists: readonly string[]; revisions: string },
): VersionedSource<T, F, keyof F & string> {
  return {
    key: keys.key,
    lists: keys.lists,
    get: api.get,
    create: api.create,
    save: api.save,
    remove: api.remove,
    revisions: {
      key: keys.revisions,
      list: api.listRevisions,
      get: api.getRevision,
      restore: api.restoreRevision,
    },
  };
}

export interface VersionedOptions<T extends Versioned, F, C extends string, V> {
  source: VersionedSource<T, F, C>;
  /** The item being edited, or none for a new one. */
  item?: T;
  /** A new item's form. */
  empty: V;
  /** An item's form. */
  fieldsOf(item: T): V;
  /** What a save sends for the form's values. */
  toSend(values: V): F;
  /** The form after a save, from what the server returned (default: as it was). */
  afterSave?(values: V, item: T): V;
  /** Where an item's form is, and where the list is. */
  pathOf(id: string): string;
  listPath: string;
  /** The notice of a save. */
  savedText(version: number): string;
  /** Another version replaces the form's (a reload after a conflict, a restore). */
  onReplaced?(item: T): void;
}

export interface VersionedEditor<T extends Versioned, F, C extends string, V> {
  source: VersionedSource<T, F, C>;
  /** The item as last loaded or saved; none for a new one. */
  item: T | undefined;
  fields: V;
  set<K extends keyof V>(key: K, value: V[K]): void;
  update(patch: Partial<V>): void;
  version: number;
  /** Whether the form differs from what was loaded or last saved. */
  dirty: boolean;
  notice: string | null;
  error: string | null;
  conflict: { current: T; changes: FieldChange<C>[] } | null;
  saving: boolean;
  deleting: boolean;
  submit(e: FormEvent): void;
  /** Saves over the version saved meanwhile. */
  overwrite(): void;
  /** Takes the version saved meanwhile, dropping the form's changes. */
  reload(): void;
  remove(): void;
  restored(item: T): Promise<void>;
}

export function useVersionedEditor<T extends Versioned, F, C extends string, V>(
  options: VersionedOptions<T, F, C, V>,
): VersionedEditor<T, F, C, V> {
  const { source, item: loaded, toSend } = options;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const location = useLocation();
  const [item, setItem] = useState<T | undefined>(loaded);
  const [fields, setFields] = useState<V>(() => (loaded ? options.fieldsOf(loaded) : options.empty));
  const [baseline, setBaseline] = useState<V>(fields);
  // A new item's form comes back at its own address with what was saved.
  const [notice, setNotice] = useState<string | null>(() => {
    const saved = (location.state as { saved?: number } | null)?.saved;
    return saved ? options.savedText(saved) : null;
  });
  const [error, setError] = useState<string | null>(null);
  const version = item?.version ?? 0;
  const dirty = isDirty(fields, baseline);
  useLeaveGuard(dirty);

  const refreshLists = async () => {
    for (const key of source.lists) await client.invalidateQueries({ queryKey: [key] });
  };
  const save = useVersionedSave<T, FieldChange<C>>({
    save: (over) =>
      loaded ? source.save(loaded.id, toSend(fields), over ?? version) : source.create(toSend(fields)),
    onSaved: async (data) => {
      setError(null);
      setItem(data);
      // `fields` is what this save sent: what was typed while it went stays unsaved.
      const { afterSave } = options;
      setBaseline(afterSave ? afterSave(fields, data) : fields);
      if (afterSave) setFields((f) => afterSave(f, data));
      setNotice(options.savedText(data.version));
      await refreshLists();
      await client.invalidateQueries({ queryKey: [source.revisions.key, data.id] });
      client.setQueryData([source.key, data.id], { data });
      if (!loaded) void navigate(options.pathOf(data.id), { replace: true, state: { saved: data.version } });
    },
    onFailed: (message) => {
      setNotice(null);
      setError(message);
    },
  });
  const { conflict } = save;
  const remove = useMutation({
    mutationFn: () => source.remove(loaded!.id, version),
    onSuccess: async () => {
      setBaseline(fields);
      await refreshLists();
      void navigate(options.listPath);
    },
    onError: (err) => setError(messageOf(err, t('errors.somethingWentWrong'))),
  });

  return {
    source,
    item,
    fields,
    set: (key, value) => setFields((f) => ({ ...f, [key]: value })),
    update: (patch) => setFields((f) => ({ ...f, ...patch })),
    version,
    dirty,
    notice,
    error,
    conflict,
    saving: save.saving,
    deleting: remove.isPending,
    submit: (e) => {
      e.preventDefault();
      save.run();
    },
    overwrite: save.overwrite,
    reload: () => {
      if (conflict) options.onReplaced?.(conflict.current);
    },
    remove: () => remove.mutate(),
    restored: async (restored) => {
      await refreshLists();
      options.onReplaced?.(restored);
    },
  };
}

/**
 * A save with the version edited: a 409 becomes the conflict (the version saved meanwhile and
 * what it changed), to be saved over (`overwrite`) or dropped; any other failure a message.
 */
export function useVersionedSave<T extends { version: number }, Ch>(options: {
  /** Saves with the version given, else the one edited. */
  save(version?: number): Promise<{ data: T }>;
  onSaved(item: T): void | Promise<void>;
  /** A failure: its message, or null for a conflict. */
  onFailed(message: string | null): void;
  /** The message of a failure without one of its own. */
  failed?: string;
}) {
  const { t } = useTranslation();
  const [conflict, setConflict] = useState<{ current: T; changes: Ch[] } | null>(null);
  const mutation = useMutation({
    mutationFn: (version?: number) => options.save(version),
    onSuccess: async ({ data }) => {
      setConflict(null);
      await options.onSaved(data);
    },
    onError: (err) => {
      const found = err instanceof ApiError && err.status === 409 ? conflictOf<T, Ch>(err.body) : null;
      setConflict(found);
      options.onFailed(found ? null : messageOf(err, options.failed ?? t('errors.somethingWentWrong')));
    },
  });
  return {
    conflict,
    saving: mutation.isPending,
    run: () => mutation.mutate(undefined),
    overwrite: () => {
      if (conflict) mutation.mutate(conflict.current.version);
    },
    /** Forgets the conflict (the other version was taken, another document opened). */
    drop: () => setConflict(null),
  };
}

/**
 * While a form has unsaved changes: the browser asks before the tab is closed or reloaded, and a
 * click on a link of the portal asks before it leaves the form.
 */
export function useLeaveGuard(dirty: boolean): void {
  const { t } = useTranslation();
  const question = t('console.content.editor.leaveConfirm');
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank') return;
      if (link.origin !== window.location.origin) return;
      if (!window.confirm(question)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', onUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, question]);
}

/** Loads an item and renders its form, again from scratch when another version replaces it. */
export function LoadVersioned<T extends Versioned, F, C extends string>({
  id,
  source,
  notFound,
  children,
}: {
  id: string;
  source: VersionedSource<T, F, C>;
  notFound: string;
  children(item: T, onReplaced: (item: T) => void): ReactNode;
}) {
  const client = useQueryClient();
  const query = useQuery({ queryKey: [source.key, id], queryFn: () => source.get(id), retry: false });
  // Raised when another version replaces the form's (a reload after a conflict, a restore).
  const [seed, setSeed] = useState(0);
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {messageOf(query.error, notFound)}
      </Alert>
    );
  }
  if (!query.data) return <Loading />;
  return (
    <Fragment key={seed}>
      {children(query.data.data, (data) => {
        client.setQueryData([source.key, id], { data });
        setSeed((n) => n + 1);
      })}
    </Fragment>
  );
}

/** The conflict of a stale save, if any: what the version saved meanwhile changed; reload theirs or save over it. */
export function EditorConflict<T extends Versioned, F, C extends string, V>({
  editor,
  labelOf,
  title,
  text,
  testId,
}: {
  editor: VersionedEditor<T, F, C, V>;
  labelOf(field: C): string;
  title: string;
  text(version: number): string;
  testId: string;
}) {
  const { conflict } = editor;
  if (!conflict) return null;
  return (
    <ConflictPanel
      title={title}
      text={text(conflict.current.version)}
      changes={conflict.changes}
      labelOf={labelOf}
      onReload={editor.reload}
      onOverwrite={editor.overwrite}
      testId={testId}
    />
  );
}

/** The words of one kind of item's form. */
export interface EditorTexts {
  label: string;
  conflictTitle: string;
  conflictText(version: number): string;
  save: string;
  delete: string;
  deleteConfirm: string;
}

/**
 * A versioned item's form: its state and version, the notices, the conflict, the fields given as
 * children, save and delete, and beside it the revisions.
 */
export function VersionedForm<T extends Versioned & { state: S }, S extends State, F, C extends string, V>({
  editor,
  texts,
  labelOf,
  stateLabel,
  extra,
  testId,
  children,
}: {
  editor: VersionedEditor<T, F, C, V>;
  texts: EditorTexts;
  labelOf(field: C): string;
  stateLabel(state: S): string;
  /** Anything more to show beside the saved item's state and version. */
  extra?: ReactNode;
  /** Names the conflict (`${testId}-conflict`) and the revisions (`${testId}-revisions`). */
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { item } = editor;
  return (
    <Group align="flex-start" gap="xl" wrap="wrap">
      <Box component="form" onSubmit={editor.submit} style={{ flex: '1 1 480px' }} aria-label={texts.label}>
        <Stack>
          {item && (
            <Group gap="xs">
              <StateBadge state={item.state} label={stateLabel(item.state)} />
              <Text size="sm" c="dimmed">
                {t('console.content.revisions.version', { version: editor.version })}
              </Text>
              {extra}
              {editor.dirty && (
                <Text size="sm" c="dimmed" data-testid={`${testId}-unsaved`}>
                  {t('console.content.editor.unsaved')}
                </Text>
              )}
            </Group>
          )}
          {editor.notice && (
            <Alert color="green" role="status">
              {editor.notice}
            </Alert>
          )}
          {editor.error && (
            <Alert color="red" role="alert">
              {editor.error}
            </Alert>
          )}
          <EditorConflict
            editor={editor}
            labelOf={labelOf}
            title={texts.conflictTitle}
            text={texts.conflictText}
            testId={`${testId}-conflict`}
          />
          {children}
          <Group>
            <Button type="submit" loading={editor.saving}>
              {texts.save}
            </Button>
            {item && (
              <Button
                color="red"
                variant="outline"
                loading={editor.deleting}
                onClick={() => {
                  if (window.confirm(texts.deleteConfirm)) editor.remove();
                }}
              >
                {texts.delete}
              </Button>
            )}
          </Group>
        </Stack>
      </Box>
      {item && (
        <RevisionsPanel
          id={item.id}
          version={editor.version}
          source={editor.source.revisions}
          labelOf={labelOf}
          onRestored={editor.restored}
          testId={`${testId}-revisions`}
        />
      )}
    </Group>
  );
}

/**
 * The state of an item that may be scheduled: its states as radio buttons and, for 'scheduled',
 * the time it goes live (in the reader's own time).
 */
export function StateControl<S extends string>({
  label,
  states,
  stateLabel,
  state,
  publishAt,
  onChange,
}: {
  label: string;
  states: readonly S[];
  stateLabel(state: S): string;
  state: S;
  publishAt: string | null;
  onChange(patch: { state?: S; publishAt?: string | null }): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Radio.Group label={label} value={state} onChange={(v) => onChange({ state: v as S })}>
        <Group mt="xs">
          {states.map((s) => (
            <Radio key={s} value={s} label={stateLabel(s)} />
          ))}
        </Group>
      </Radio.Group>
      {state === 'scheduled' && (
        <TextInput
          type="datetime-local"
          step={1}
          required
          label={t('console.content.editor.publishAtLabel')}
          value={toLocalInput(publishAt)}
          onChange={(e) => onChange({ publishAt: fromLocalInput(e.currentTarget.value) })}
        />
      )}
    </>
  );
}

/** An image given by its address, with its description. */
export function ImageFields({
  labels,
  imageUrl,
  imageAlt,
  onChange,
}: {
  labels: { url: string; alt: string };
  imageUrl: string | null;
  imageAlt: string;
  onChange(patch: { imageUrl?: string | null; imageAlt?: string }): void;
}) {
  return (
    <Group grow>
      <TextInput
        label={labels.url}
        value={imageUrl ?? ''}
        onChange={(e) => onChange({ imageUrl: e.currentTarget.value.trim() ? e.currentTarget.value : null })}
      />
      <TextInput
        label={labels.alt}
        value={imageAlt}
        onChange={(e) => onChange({ imageAlt: e.currentTarget.value })}
      />
    </Group>
  );
}
