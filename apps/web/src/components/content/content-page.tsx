import { Anchor, Box, Button, Container, Group, Image, Text, Typography } from '@mantine/core';
import { IconArrowLeft, IconFileTypePdf } from '@tabler/icons-react';
import DOMPurify from 'dompurify';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PDF_EXPORT_DELAY_MS } from '@portico/contracts/constants';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { PageBreadcrumbs, type Crumb } from '../ui/page-breadcrumbs';
import { PageTitle } from '../ui/page-title';
import { AuthorAvatar } from './author-avatar';
import classes from './content.module.css';
import { ddmmyyyy } from './date';
import { ScrollSpyToc } from './scroll-spy-toc';
import { withHeadingIds } from './toc';
import { langOf, type TranslationMarker } from './translation';
import { TranslationNote } from './translation-note';

export interface ContentPageProps {
  title: string;
  /** Processed HTML from the server; sanitized again here. */
  html: string;
  image?: { url: string; alt?: string } | null;
  breadcrumb: Crumb[];
  /** Blog articles link back to the blog (spec B 2.8). */
  backToBlog?: boolean;
  scrollspy: boolean;
  created?: string | null;
  author?: { name: string; imageUrl: string | null } | null;
  /** The PDF's file name (without .pdf). */
  pdfName: string;
  /** Replaces the print button (a cloud document's PDF download link). */
  pdfLink?: string | null;
  /** Shown below the body (the cloud document viewer). */
  children?: ReactNode;
  /** The language the text is in (decision 063): a fallback is noted and marked with `lang`. */
  translation?: TranslationMarker | null;
}

/**
 * A basic page or a blog article (spec B 2.8): breadcrumb, title, hero image (hidden when it fails
 * to load), 'BACK TO BLOG', a scroll-spy table of contents of the h1-h3 headings, and print to PDF.
 */
export function ContentPage(props: ContentPageProps) {
  const { t } = useTranslation();
  // The URL of a hero image that failed to load: hidden (spec B 8) until the page shows another one.
  const [failedImage, setFailedImage] = useState<string>();
  const imageFailed = failedImage !== undefined && failedImage === props.image?.url;
  const [printing, setPrinting] = useState(false);
  const contentRef = useRef<HTMLDivElement>(null);
  const heroRef = useRef<HTMLImageElement>(null);
  const { html, items } = useMemo(
    () => withHeadingIds(DOMPurify.sanitize(props.html, { USE_PROFILES: { html: true } })),
    [props.html],
  );

  const print = () => {
    setPrinting(true);
    // The spec's 1-second delay lets images and fonts settle before the PDF is drawn.
    window.setTimeout(() => {
      void import('./pdf-export')
        .then(({ exportPdf }) =>
          contentRef.current
            ? exportPdf({
                title: props.title,
                content: contentRef.current,
                heroImage: imageFailed ? null : heroRef.current,
                fileName: `${props.pdfName}.pdf`,
              })
            : undefined,
        )
        .finally(() => setPrinting(false));
    }, PDF_EXPORT_DELAY_MS);
  };

  const showToc = props.scrollspy && items.length > 0;
  return (
    <Container size="lg" py="xl">
      <PageBreadcrumbs items={props.breadcrumb} />
      {props.backToBlog && (
        <Anchor component={Link} to={paths.blog} size="sm" fw={700} mb="sm" display="inline-flex">
          <IconArrowLeft size={16} aria-hidden style={{ marginRight: 4 }} />
          {t('content.backToBlog')}
        </Anchor>
      )}
      <TranslationNote marker={props.translation} />
      <PageTitle lang={langOf(props.translation)}>{props.title}</PageTitle>
      <Group justify="space-between" mb="md" gap="sm">
        <Group gap="md">
          {props.author && <AuthorAvatar name={props.author.name} imageUrl={props.author.imageUrl} />}
          {props.created && (
            <Text size="sm" c="dimmed" data-testid="article-created">
              {ddmmyyyy(props.created)}
            </Text>
          )}
        </Group>
        {props.pdfLink ? (
          <Button
            component="a"
            href={props.pdfLink}
            target="_blank"
            rel="noopener noreferrer"
            variant="light"
            leftSection={<IconFileTypePdf size={16} aria-hidden />}
          >
            {t('content.downloadPdf')}
          </Button>
        ) : (
          <Button
            variant="light"
            onClick={print}
            loading={printing}
            leftSection={<IconFileTypePdf size={16} aria-hidden />}
          >
            {t('content.printPdf')}
          </Button>
        )}
      </Group>
      {props.image && !imageFailed && (
        <Image
          ref={heroRef}
          src={props.image.url}
          alt={props.image.alt ?? ''}
          mb="lg"
          radius="md"
          mah={420}
          fit="cover"
          data-testid="hero-image"
          onError={() => setFailedImage(props.image?.url)}
        />
      )}
      <div className={showToc ? classes.withToc : undefined}>
        <Box ref={contentRef} className={classes.body}>
          <Typography
            className={classes.html}
            lang={langOf(props.translation)}
            dangerouslySetInnerHTML={{ __html: html }}
          />
          {props.children}
        </Box>
        {showToc && <ScrollSpyToc items={items} />}
      </div>
      {printing && (
        <Text size="sm" c="dimmed" role="status" mt="sm">
          {t('content.preparingPdf')}
        </Text>
      )}
    </Container>
  );
}
