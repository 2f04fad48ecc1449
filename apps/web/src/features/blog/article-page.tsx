import { useLocation } from 'react-router';
import { useArticleByPath } from '../../components/content/articles';
import { ContentPage } from '../../components/content/content-page';
import { NotFound } from '../../components/not-found';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';

/** A blog article at its path alias /blog/<slug> (spec B 2.8); internal articles need a login. */
export default function ArticlePage() {
  const { pathname } = useLocation();
  const internal = pathname.toLowerCase().includes('internal');
  const page = <Article path={pathname.replace(/\/+$/, '')} />;
  return internal ? <RequireLogin>{page}</RequireLogin> : page;
}

function Article({ path }: { path: string }) {
  const { t } = useTranslation();
  const article = useArticleByPath(path);
  if (article.isPending) return <Loading />;
  if (article.isError || !article.data) return <NotFound />;
  const a = article.data;
  return (
    <ContentPage
      title={a.title}
      html={a.body}
      image={a.image}
      breadcrumb={[
        { title: t('content.home'), to: paths.home },
        { title: t('content.blogTitle'), to: paths.blog },
        { title: a.title },
      ]}
      backToBlog
      scrollspy={a.scrollspyVisible}
      created={a.created}
      author={a.author ? { name: a.author.name, imageUrl: a.author.image } : null}
      pdfName={path.split('/').pop() || 'article'}
      translation={a.translation}
    />
  );
}
