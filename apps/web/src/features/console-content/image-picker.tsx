import {
  Alert,
  Box,
  Button,
  FileInput,
  Group,
  Image,
  Modal,
  Progress,
  Radio,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import {
  CONSOLE_IMAGE_ACCEPT,
  CONSOLE_IMAGES_PAGE_DEFAULT,
  CONSOLE_IMAGES_PAGE_MAX,
  type ConsoleImage,
} from '@portico/contracts/console-images';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { deleteImage, listImages, uploadImage } from './images-api';

export interface ImagePickerProps {
  /** The Markdown text the image goes into. */
  body: string;
  onBodyChange: (body: string) => void;
  /** The label of the text's textarea (in the same form): the image goes in at its cursor. */
  bodyLabel: string;
  /** Articles and pages: puts the image's address and description in their image fields. */
  onUseAsImage?: (url: string, alt: string) => void;
}

/** `![alt](url)`, the description's brackets and backslashes escaped. */
export function markdownImage(alt: string, url: string): string {
  return `![${alt.trim().replace(/[\\[\]]/g, (c) => `\\${c}`)}](${url})`;
}

type Selection = { start: number; end: number };

/** The textarea of `form` whose label contains `label`. */
function bodyTextarea(anchor: HTMLElement | null, label: string): HTMLTextAreaElement | undefined {
  const form = anchor?.closest('form');
  if (!form) return undefined;
  return [...form.querySelectorAll('textarea')].find((area) =>
    [...(area.labels ?? [])].some((l) => l.textContent?.includes(label)),
  );
}

/**
 * "Insert image" for the console's Markdown editors (articles, pages, FAQ answers): a dialog that
 * uploads an image, with its progress, or picks one uploaded before, asks for its description
 * (required), and puts `![description](/images/console/…)` at the cursor of the text, or, for
 * articles and pages, the address and description in their image fields. The server checks the
 * file (modules/console-images/README.md); its refusal is shown as it says it. An uploaded image
 * can be deleted from the list, after a confirmation; the server refuses one that content still
 * shows and says where (shown as it says it).
 */
export function ImagePicker({ body, onBodyChange, bodyLabel, onUseAsImage }: ImagePickerProps) {
  const { t } = useTranslation();
  const anchor = useRef<HTMLDivElement>(null);
  const [opened, setOpened] = useState(false);
  // Where the text's cursor was: read when the dialog opens, kept when the text loses focus.
  const selection = useRef<Selection | null>(null);
  // After an insertion the cursor goes back into the text, right after the image (not to the button).
  const caretAfterClose = useRef<number | null>(null);
  const [returnFocus, setReturnFocus] = useState(true);

  useEffect(() => {
    const form = anchor.current?.closest('form');
    if (!form) return;
    const remember = (e: FocusEvent) => {
      const area = bodyTextarea(anchor.current, bodyLabel);
      if (area && e.target === area)
        selection.current = { start: area.selectionStart, end: area.selectionEnd };
    };
    form.addEventListener('focusout', remember);
    return () => form.removeEventListener('focusout', remember);
  }, [bodyLabel]);

  const open = () => {
    const area = bodyTextarea(anchor.current, bodyLabel);
    if (area && area.offsetParent !== null)
      selection.current = { start: area.selectionStart, end: area.selectionEnd };
    caretAfterClose.current = null;
    setReturnFocus(true);
    setOpened(true);
  };

  const insert = (markdown: string) => {
    const at = selection.current ?? { start: body.length, end: body.length };
    const start = Math.min(at.start, body.length);
    const end = Math.min(Math.max(at.end, start), body.length);
    onBodyChange(body.slice(0, start) + markdown + body.slice(end));
    const caret = start + markdown.length;
    selection.current = { start: caret, end: caret };
    caretAfterClose.current = caret;
    setReturnFocus(false);
    setOpened(false);
  };

  const afterClose = () => {
    const caret = caretAfterClose.current;
    caretAfterClose.current = null;
    const area = bodyTextarea(anchor.current, bodyLabel);
    if (caret === null || !area || area.offsetParent === null) return;
    area.focus();
    area.setSelectionRange(caret, caret);
  };

  return (
    <Box ref={anchor}>
      <Button type="button" variant="default" size="xs" onClick={open} aria-haspopup="dialog">
        {t('console.images.picker.open')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        onExitTransitionEnd={afterClose}
        returnFocus={returnFocus}
        title={t('console.images.picker.title')}
        size="lg"
      >
        {opened && (
          <PickerDialog
            onInsert={(alt, image) => insert(markdownImage(alt, image.url))}
            onUseAsImage={
              onUseAsImage &&
              ((alt, image) => {
                onUseAsImage(image.url, alt.trim());
                setOpened(false);
              })
            }
            onCancel={() => setOpened(false)}
          />
        )}
      </Modal>
    </Box>
  );
}

function PickerDialog({
  onInsert,
  onUseAsImage,
  onCancel,
}: {
  onInsert: (alt: string, image: ConsoleImage) => void;
  onUseAsImage?: (alt: string, image: ConsoleImage) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [tab, setTab] = useState<string | null>('upload');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [selected, setSelected] = useState<ConsoleImage | null>(null);
  const [alt, setAlt] = useState('');
  const [altError, setAltError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const altInput = useRef<HTMLInputElement>(null);
  const [limit, setLimit] = useState(CONSOLE_IMAGES_PAGE_DEFAULT);

  const images = useQuery({
    queryKey: ['console-images', limit],
    queryFn: () => listImages(limit),
    enabled: tab === 'uploaded',
  });

  const upload = useMutation({
    mutationFn: (f: File) => uploadImage(f, setProgress),
    onMutate: () => {
      setProblem(null);
      setSelected(null);
      setProgress(0);
    },
    onSuccess: async (image) => {
      setSelected(image);
      await client.invalidateQueries({ queryKey: ['console-images'] });
    },
    onSettled: () => setProgress(null),
  });

  // "Delete" beside an uploaded image, after a confirmation; the server refuses one still shown.
  const [deletedName, setDeletedName] = useState('');
  const remove = useMutation({
    mutationFn: (image: ConsoleImage) => deleteImage(image.id),
    onMutate: () => setDeletedName(''),
    onSuccess: async (_done, image) => {
      setDeletedName(t('console.images.picker.deleted', { name: image.name }));
      setSelected((current) => (current?.id === image.id ? null : current));
      await client.invalidateQueries({ queryKey: ['console-images'] });
    },
  });

  const choose = (f: File | null) => {
    setFile(f);
    if (f) upload.mutate(f);
  };

  /** The chosen image and its description, or undefined after saying what is missing. */
  const ready = (): { image: ConsoleImage; alt: string } | undefined => {
    if (!selected) {
      setProblem(t('console.images.picker.noImage'));
      return undefined;
    }
    if (!alt.trim()) {
      setAltError(t('console.images.picker.altRequired'));
      altInput.current?.focus();
      return undefined;
    }
    return { image: selected, alt };
  };

  const list = images.data?.data ?? [];
  return (
    <Stack>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="upload">{t('console.images.picker.upload')}</Tabs.Tab>
          <Tabs.Tab value="uploaded">{t('console.images.picker.uploaded')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="upload" pt="sm">
          <Stack gap="xs">
            <FileInput
              label={t('console.images.picker.fileLabel')}
              description={t('console.images.picker.fileHint')}
              accept={CONSOLE_IMAGE_ACCEPT}
              value={file}
              onChange={choose}
              disabled={upload.isPending}
            />
            {progress !== null && file && (
              <Stack gap={4} role="status" aria-live="polite">
                <Progress
                  value={Math.round(progress * 100)}
                  aria-label={t('console.images.picker.uploading', { name: file.name })}
                />
                <Text size="sm">{t('console.images.picker.uploading', { name: file.name })}</Text>
              </Stack>
            )}
            {upload.isError && (
              <Alert color="red" role="alert">
                {messageOf(upload.error, t('errors.somethingWentWrong'))}
              </Alert>
            )}
            {upload.isSuccess && selected?.id === upload.data.id && (
              <Text size="sm" role="status">
                {t('console.images.picker.uploadedOne', { name: upload.data.name })}
              </Text>
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="uploaded" pt="sm">
          {images.isError ? (
            <Alert color="red" role="alert">
              {messageOf(images.error, t('console.images.picker.loadFailed'))}
            </Alert>
          ) : images.data && list.length === 0 ? (
            <Text size="sm">{t('console.images.picker.none')}</Text>
          ) : (
            <ScrollArea.Autosize mah={320}>
              <Radio.Group
                label={t('console.images.picker.chooseLabel')}
                value={selected?.id ?? null}
                onChange={(id) => {
                  setProblem(null);
                  setSelected(list.find((i) => i.id === id) ?? null);
                }}
              >
                <Stack gap="xs" mt="xs">
                  {list.map((image) => (
                    <Group key={image.id} gap="sm" wrap="nowrap" justify="space-between">
                      <Radio
                        value={image.id}
                        label={
                          <Group gap="sm" wrap="nowrap">
                            <Image src={image.url} alt="" w={48} h={48} fit="contain" />
                            <span>
                              {image.name}
                              {image.width && image.height ? (
                                <Text span size="xs" c="dimmed" display="block">
                                  {t('console.images.picker.dimensions', {
                                    width: image.width,
                                    height: image.height,
                                  })}
                                </Text>
                              ) : null}
                            </span>
                          </Group>
                        }
                      />
                      <Button
                        type="button"
                        size="compact-xs"
                        variant="outline"
                        // Dark red on white: AA contrast (axe), as the console's other delete buttons.
                        color="red.9"
                        aria-label={t('console.images.picker.deleteLabel', { name: image.name })}
                        loading={remove.isPending && remove.variables?.id === image.id}
                        onClick={() => {
                          if (window.confirm(t('console.images.picker.deleteConfirm', { name: image.name })))
                            remove.mutate(image);
                        }}
                      >
                        {t('console.images.picker.delete')}
                      </Button>
                    </Group>
                  ))}
                </Stack>
              </Radio.Group>
              {images.data && images.data.meta.count > list.length && limit < CONSOLE_IMAGES_PAGE_MAX && (
                <Button
                  type="button"
                  variant="subtle"
                  mt="xs"
                  onClick={() =>
                    setLimit((n) => Math.min(n + CONSOLE_IMAGES_PAGE_DEFAULT, CONSOLE_IMAGES_PAGE_MAX))
                  }
                >
                  {t('console.images.picker.more')}
                </Button>
              )}
            </ScrollArea.Autosize>
          )}
          {remove.isError && (
            <Alert color="red" role="alert" mt="xs" data-testid="image-delete-refused">
              {messageOf(remove.error, t('errors.somethingWentWrong'))}
            </Alert>
          )}
          <Text size="sm" role="status" mt={remove.isSuccess ? 'xs' : 0}>
            {deletedName}
          </Text>
        </Tabs.Panel>
      </Tabs>
      {selected && (
        <Group gap="sm" wrap="nowrap" data-testid="image-picker-selected">
          <Image src={selected.url} alt={alt.trim()} mah={120} w="auto" fit="contain" />
          <Text size="sm">
            {t('console.images.picker.selected')}: {selected.name}
          </Text>
        </Group>
      )}
      <TextInput
        ref={altInput}
        label={t('console.images.picker.altLabel')}
        description={t('console.images.picker.altHint')}
        required
        value={alt}
        error={altError}
        onChange={(e) => {
          setAlt(e.currentTarget.value);
          if (e.currentTarget.value.trim()) setAltError(null);
        }}
      />
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button type="button" variant="default" onClick={onCancel}>
          {t('console.images.picker.cancel')}
        </Button>
        {onUseAsImage && (
          <Button
            type="button"
            variant="light"
            disabled={upload.isPending}
            onClick={() => {
              const r = ready();
              if (r) onUseAsImage(r.alt, r.image);
            }}
          >
            {t('console.images.picker.useAsImage')}
          </Button>
        )}
        <Button
          type="button"
          disabled={upload.isPending}
          onClick={() => {
            const r = ready();
            if (r) onInsert(r.alt, r.image);
          }}
        >
          {t('console.images.picker.insert')}
        </Button>
      </Group>
    </Stack>
  );
}
