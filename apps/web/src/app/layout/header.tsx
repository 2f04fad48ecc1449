import { Anchor, Box, Burger, Container, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import classes from './layout.module.css';
import { MainMenu } from './main-menu';
import { UserArea } from './user-area';
import { LanguageSwitcher } from './language-switcher';
import { lazyPage, showWhenLoaded } from '../../lib/lazy-page';

const MobileMenu = lazyPage(() => import('./mobile-menu'), { featureMessages: false });

/** Site header: top bar with the cookie settings link and the user area, then the main menu. */
export function Header() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Mounted from the first opening on, so the drawer can animate closed.
  const [wanted, setWanted] = useState(false);
  return (
    <Box component="header" className={classes.header}>
      <Box className={classes.topBar}>
        <Container size="xl" py={6}>
          <Group justify="flex-end" gap="lg">
            <Anchor component={Link} to={paths.cookieSettings} size="sm">
              {t('menu.cookieSettings')}
            </Anchor>
            <LanguageSwitcher />
            <UserArea />
          </Group>
        </Container>
      </Box>
      <Container size="xl" py="sm">
        <Group justify="space-between" wrap="nowrap">
          <Link to={paths.home} className={classes.brand}>
            {t('site.title')}
          </Link>
          <Box component="nav" aria-label={t('menu.mainMenu')} className={classes.desktopOnly}>
            <MainMenu />
          </Box>
          <Burger
            className={classes.mobileOnly}
            opened={opened}
            onClick={() =>
              showWhenLoaded(MobileMenu, () => {
                setWanted(true);
                toggle();
              })
            }
            aria-label={t('menu.openMenu')}
          />
        </Group>
      </Container>
      {wanted && (
        <Suspense fallback={null}>
          <MobileMenu opened={opened} onClose={close} />
        </Suspense>
      )}
    </Box>
  );
}
