import { ActionIcon, Anchor, Button, FileInput, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { DOCUMENT_EXTENSIONS, acceptAttribute, extensionAllowed } from '@portico/contracts/organizations';
import { messageOf } from '../../lib/api-client';
import {
  PERMISSIONS,
  hasPermission,
  organizationKeys,
  updateOrganization,
  uploadFile,
  type FileResource,
  type Organization,
} from './api';
import { MessageAlert, UploadList } from './parts';
import { useTimedMessage } from './timed-message';
import { useUploadQueue } from './use-upload-queue';

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Documents of an organization with upload (spec A 4, 5): several files at once, allowed extensions
 * only, uploaded one by one through the queue; each failure shows the file name with 'Could not
 * upload file' and the detail, and vanishes after 10 s. Members with the document permission may
 * also remove a document (PATCH field_documents with the ones kept).
 */
export function OrganizationDocuments({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { resource, documents } = organization;
  const canUpload = hasPermission(resource, PERMISSIONS.uploadDocuments);
  const [selected, setSelected] = useState<File[]>([]);
  const [message, showMessage] = useTimedMessage();
  const orgId = resource.id;

  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: organizationKeys.one(orgId) }),
    [queryClient, orgId],
  );
  const runner = useCallback(
    async (file: File) => {
      // Spec A 5: unsupported types are refused before anything is sent.
      if (!extensionAllowed(file.name, DOCUMENT_EXTENSIONS))
        throw { title: t('organizations.uploadFailed'), detail: t('organizations.extensionNotAllowed') };
      await uploadFile(orgId, 'field_documents', file);
      void refresh();
    },
    [orgId, refresh, t],
  );
  const uploads = useUploadQueue<File>();

  async function upload() {
    const files = selected;
    setSelected([]);
    uploads.queue.enqueue(files, runner);
    await uploads.queue.whenIdle();
    const failed = uploads.queue.getSnapshot().entries.some((e) => e.state === 'failed');
    if (!failed) showMessage({ kind: 'status', text: t('organizations.uploadsDone') });
  }

  const remove = useMutation({
    mutationFn: (doc: FileResource) =>
      updateOrganization(orgId, { documentIds: documents.filter((d) => d.id !== doc.id).map((d) => d.id) }),
    onSuccess: (_data, doc) => {
      showMessage({
        kind: 'status',
        text: t('organizations.documentRemoved', { name: doc.attributes.fileName }),
      });
      void refresh();
    },
    onError: (error) =>
      showMessage({ kind: 'error', text: messageOf(error, t('organizations.somethingWentWrong')) }),
  });

  return (
    <Stack component="section" aria-labelledby="organization-documents" gap="sm">
      <Title order={2} size="h3" id="organization-documents">
        {t('organizations.documentsTitle')}
      </Title>
      {documents.length === 0 ? (
        <Text>{t('organizations.noDocuments')}</Text>
      ) : (
        <List listStyleType="none" spacing="xs" aria-label={t('organizations.documentsTitle')}>
          {documents.map((doc) => (
            <List.Item key={doc.id}>
              <Group gap="xs" wrap="nowrap">
                <Anchor href={doc.attributes.url} download={doc.attributes.fileName}>
                  {doc.attributes.fileName}
                </Anchor>
                <Text size="sm" c="dimmed">
                  {formatSize(doc.attributes.fileSize)}
                </Text>
                {canUpload && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('organizations.removeDocument', { name: doc.attributes.fileName })}
                    loading={remove.isPending && remove.variables.id === doc.id}
                    onClick={() => remove.mutate(doc)}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      {canUpload && (
        <Group align="flex-end" wrap="wrap">
          <FileInput
            multiple
            label={t('organizations.chooseFiles')}
            placeholder={t('organizations.chooseFiles')}
            description={t('organizations.allowedExtensions', { list: DOCUMENT_EXTENSIONS.join(' ') })}
            accept={acceptAttribute(DOCUMENT_EXTENSIONS)}
            value={selected}
            onChange={setSelected}
            clearable
            style={{ flex: 1, minWidth: 240 }}
          />
          <Button onClick={() => void upload()} disabled={selected.length === 0}>
            {t('organizations.uploadButton')}
          </Button>
        </Group>
      )}
      <UploadList entries={uploads.entries} />
      <MessageAlert message={message} />
    </Stack>
  );
}
