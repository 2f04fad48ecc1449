import { Title, type TitleProps } from '@mantine/core';
import { useEffect } from 'react';
import { t } from '../../lib/i18n';

/** The page's heading, also used as the document title ('<page> | Developers Portal'). */
export function PageTitle({ children, order = 1, ...props }: TitleProps & { children: string }) {
  useEffect(() => {
    document.title = children ? `${children} | ${t('site.title')}` : t('site.title');
    return () => {
      document.title = t('site.title');
    };
  }, [children]);
  return (
    <Title order={order} mb="md" {...props}>
      {children}
    </Title>
  );
}
