import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { useLocation, useNavigate } from 'react-router';
import { loginPath } from '../../config/paths';
import { useAppStore } from '../../lib/store';

/** 'Your session has expired' with LOGIN (spec B 2.2, 8), when the session ended without a manual logout. */
export default function SessionExpiredModal() {
  const { t } = useTranslation();
  const open = useAppStore((s) => s.sessionExpired);
  const close = useAppStore((s) => s.setSessionExpired);
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Modal opened={open} onClose={() => close(false)} title={t('errors.sessionExpired')} centered>
      <Text size="sm" mb="md">
        {t('errors.sessionExpiredText')}
      </Text>
      <Group justify="flex-end">
        <Button
          data-autofocus
          onClick={() => {
            close(false);
            navigate(loginPath(location.pathname + location.search));
          }}
        >
          {t('user.login')}
        </Button>
      </Group>
    </Modal>
  );
}
