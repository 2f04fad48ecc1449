import { ActionIcon, Group, NavLink as MantineNavLink, Stack } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n';
import { NavLink } from 'react-router';
import { paths } from '../../config/paths';
import { useIsLoggedIn } from '../../lib/store';
import classes from './layout.module.css';

interface Item {
  label: string;
  to: string;
  loggedInOnly?: boolean;
}

/** Main menu (spec B 2.14): API PRODUCTS and APPS only for signed-in users. */
export function useMenuItems(): Item[] {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const items: Item[] = [
    { label: t('menu.home'), to: paths.home },
    { label: t('menu.gettingStarted'), to: paths.started },
    { label: t('menu.apiProducts'), to: paths.apiProducts, loggedInOnly: true },
    { label: t('menu.apps'), to: paths.organizations, loggedInOnly: true },
    { label: t('menu.support'), to: paths.support },
    { label: t('menu.blog'), to: paths.blog },
    { label: t('menu.faqs'), to: paths.faq },
  ];
  return items.filter((i) => loggedIn || !i.loggedInOnly);
}

export function MainMenu({ vertical = false, onNavigate }: { vertical?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const items = useMenuItems();
  if (vertical) {
    return (
      <Stack gap={0} component="ul" className={classes.plainList}>
        {items.map((i) => (
          <li key={i.to}>
            <MantineNavLink
              component={NavLink}
              to={i.to}
              end={i.to === '/'}
              label={i.label}
              onClick={onNavigate}
            />
          </li>
        ))}
        <li>
          <MantineNavLink
            component={NavLink}
            to={paths.search}
            label={t('menu.search')}
            onClick={onNavigate}
          />
        </li>
      </Stack>
    );
  }
  return (
    <Group gap={4} component="ul" className={classes.plainList} wrap="nowrap">
      {items.map((i) => (
        <li key={i.to}>
          <NavLink to={i.to} end={i.to === '/'} className={classes.menuLink}>
            {i.label}
          </NavLink>
        </li>
      ))}
      <li>
        <ActionIcon
          component={NavLink}
          to={paths.search}
          variant="subtle"
          aria-label={t('menu.search')}
          size="lg"
        >
          <IconSearch size={18} />
        </ActionIcon>
      </li>
    </Group>
  );
}
