import { Button, Checkbox, FileInput, Group, Image, Stack, TextInput, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n';
import { issueText } from '../../components/forms/zod-text';
import { useTouched } from '../../lib/touched';
import { useNavigate } from 'react-router';
import {
  IMAGE_EXTENSIONS,
  ORGANIZATION_DESCRIPTION_MAX,
  acceptAttribute,
  extensionAllowed,
  organizationFormSchema,
} from '@portico/contracts/organizations';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import {
  createOrganization,
  organizationKeys,
  updateOrganization,
  uploadFile,
  type Organization,
} from './api';
import { MessageAlert, UploadList, errorsByPointer } from './parts';
import { useTimedMessage } from './timed-message';
import type { UploadProblem } from './upload-queue';
import { useUploadQueue } from './use-upload-queue';

type Field = 'title' | 'description';

/** What the single view shows after a save whose image could not be uploaded. */
export interface AfterSaveState {
  uploadProblems?: { fileName: string; problem: UploadProblem }[];
}

/**
 * CREATE ORGANIZATION and EDIT ORGANIZATION (spec A 2, 5): title (required), description, image.
 * Errors show after a field is touched and on submit. The texts are saved first; the chosen image
 * then goes through the upload queue, and once the queue's status is 1 the user goes to the
 * organization's single view (spec A 2 redirects).
 */
export function OrganizationForm({ organization }: { organization?: Organization }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(organization?.resource.attributes.label ?? '');
  const [description, setDescription] = useState(organization?.resource.attributes.field_body.value ?? '');
  const [image, setImage] = useState<File | null>(null);
  const [removeImage, setRemoveImage] = useState(false);
  const { touched, touch, touchAll } = useTouched<Field>();
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);
  const [message, showMessage] = useTimedMessage();
  const uploads = useUploadQueue<File>();

  const parsed = organizationFormSchema.safeParse({ title, description });
  const clientErrors: Partial<Record<Field, string>> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as Field;
      clientErrors[field] ??= issueText(issue);
    }
  const errorOf = (field: Field) =>
    touched[field] ? (clientErrors[field] ?? serverErrors[field]) : undefined;

  async function submit(e: FormEvent) {
    e.preventDefault();
    touchAll(['title', 'description']);
    setServerErrors({});
    if (!parsed.success) return;
    setSaving(true);
    try {
      let id = organization?.resource.id;
      if (id) {
        await updateOrganization(id, {
          title: parsed.data.title,
          description: parsed.data.description,
          ...(removeImage && !image ? { imageId: null } : {}),
        });
      } else {
        id = (await createOrganization(parsed.data.title, parsed.data.description)).id;
      }
      const orgId = id;
      const problems: NonNullable<AfterSaveState['uploadProblems']> = [];
      if (image) {
        uploads.queue.enqueue([image], (file) =>
          extensionAllowed(file.name, IMAGE_EXTENSIONS)
            ? uploadFile(orgId, 'field_image', file)
            : Promise.reject({
                title: t('organizations.uploadFailed'),
                detail: t('organizations.extensionNotAllowed'),
              }),
        );
        await uploads.queue.whenIdle();
        for (const entry of uploads.queue.getSnapshot().entries)
          if (entry.state === 'failed' && entry.problem)
            problems.push({ fileName: entry.fileName, problem: entry.problem });
      }
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
      const state: AfterSaveState = problems.length ? { uploadProblems: problems } : {};
      void navigate(paths.organization(id), { state });
    } catch (error) {
      setSaving(false);
      const byPointer = error instanceof ApiError ? errorsByPointer(error.body) : new Map<string, string>();
      const fieldErrors: Partial<Record<Field, string>> = {};
      const label = byPointer.get('/data/attributes/label');
      const body = byPointer.get('/data/attributes/field_body');
      if (label) fieldErrors.title = label;
      if (body) fieldErrors.description = body;
      setServerErrors(fieldErrors);
      if (!label && !body)
        showMessage({ kind: 'error', text: messageOf(error, t('organizations.somethingWentWrong')) });
    }
  }

  const currentImage = organization?.image;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack>
        <TextInput
          label={t('organizations.fieldTitle')}
          value={title}
          onChange={(e) => {
            setTitle(e.currentTarget.value);
            setServerErrors((s) => ({ ...s, title: undefined }));
          }}
          onBlur={() => touch('title')}
          error={errorOf('title')}
          required
        />
        <Textarea
          label={t('organizations.fieldDescription')}
          value={description}
          onChange={(e) => {
            setDescription(e.currentTarget.value);
            setServerErrors((s) => ({ ...s, description: undefined }));
          }}
          onBlur={() => touch('description')}
          error={errorOf('description')}
          description={`${description.length} / ${ORGANIZATION_DESCRIPTION_MAX}`}
          autosize
          minRows={4}
        />
        {currentImage && !removeImage && !image && (
          <Image
            src={currentImage.attributes.url}
            alt={t('organizations.currentImage', { organization: organization.resource.attributes.label })}
            w={160}
            radius="sm"
          />
        )}
        <FileInput
          label={t('organizations.fieldImage')}
          placeholder={t('organizations.chooseImage')}
          accept={acceptAttribute(IMAGE_EXTENSIONS)}
          value={image}
          onChange={setImage}
          clearable
          description={t('organizations.allowedExtensions', { list: IMAGE_EXTENSIONS.join(' ') })}
        />
        {currentImage && (
          <Checkbox
            label={t('organizations.removeImage')}
            checked={removeImage}
            onChange={(e) => setRemoveImage(e.currentTarget.checked)}
          />
        )}
        <UploadList entries={uploads.entries} />
        <MessageAlert message={message} />
        <Group>
          <Button type="submit" loading={saving}>
            {organization ? t('organizations.saveButton') : t('organizations.createSubmit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
