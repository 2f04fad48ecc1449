import { Title, type TitleProps } from '@mantine/core';
import { useEffect } from 'react';
import { shellMessages as en } from '@portico/contracts/messages/shell';

/** The page's heading, also used as the document title ('<page> | Developers Portal'). */
export function PageTitle({ children, order = 1, ...props }: TitleProps & { children: string }) {
  useEffect(() => {
    document.title = children ? `${children} | ${en.site.title}` : en.site.title;
    return () => {
      document.title = en.site.title;
    };
  }, [children]);
  return (
    <Title order={order} mb="md" {...props}>
      {children}
    </Title>
  );
}
