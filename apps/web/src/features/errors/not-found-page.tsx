import { NotFound } from '../../components/not-found';

/** /404 and every unknown path. */
export default function NotFoundPage() {
  return <NotFound />;
}
