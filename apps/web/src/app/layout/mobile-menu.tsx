import { Drawer } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { MainMenu } from './main-menu';

/** The main menu in a drawer on small screens; loaded the first time the burger is pressed. */
export default function MobileMenu({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer opened={opened} onClose={onClose} title={t('site.title')} size="xs">
      <nav aria-label={t('menu.mainMenu')}>
        <MainMenu vertical onNavigate={onClose} />
      </nav>
    </Drawer>
  );
}
