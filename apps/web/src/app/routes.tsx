import { lazy } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import type { FeatureRoute } from '../config/feature-route';
import { paths } from '../config/paths';
import { adminGoLiveRoutes } from '../features/admin-go-live/routes';
import { applicationsRoutes } from '../features/applications/routes';
import { organizationsRoutes } from '../features/organizations/routes';
import { productsRoutes } from '../features/products/routes';
import { AppLayout } from './layout/app-layout';

// Every page is its own chunk (spec: keep the first page's JavaScript small).
const HomePage = lazy(() => import('../features/home/home-page'));
const LoginPage = lazy(() => import('../features/auth/login-page'));
const CallbackPage = lazy(() => import('../features/auth/callback-page'));
const RedocCallbackPage = lazy(() => import('../features/auth/redoc-callback-page'));
const CookieSettingsPage = lazy(() => import('../features/cookies/cookie-settings-page'));
const NotFoundPage = lazy(() => import('../features/errors/not-found-page'));
const ProfilePage = lazy(() => import('../features/profile/profile-page'));
const BasicPage = lazy(() => import('../features/pages/basic-page'));

/** /partner/... is stripped: the visitor lands on the rest of the path (spec B 2.1). */
function StripPartner() {
  const location = useLocation();
  const rest = location.pathname.replace(/^\/partner/, '') || '/';
  return <Navigate to={rest + location.search + location.hash} replace />;
}

/** /news and news article URLs go to /blog (spec B 2.1). */
function NewsToBlog() {
  const { '*': rest } = useParams();
  return <Navigate to={rest ? `${paths.blog}/${rest}` : paths.blog} replace />;
}

/** Routes contributed by features, one list per feature. */
const featureRoutes: FeatureRoute[] = [
  ...organizationsRoutes,
  ...productsRoutes,
  ...applicationsRoutes,
  ...adminGoLiveRoutes,
];

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<HomePage />} />
        <Route path={paths.login} element={<LoginPage />} />
        <Route path={paths.loginCallback} element={<CallbackPage />} />
        <Route path={paths.redocCallback} element={<RedocCallbackPage />} />
        <Route path={paths.cookieSettings} element={<CookieSettingsPage />} />
        <Route path={paths.profile} element={<ProfilePage />} />
        <Route path={paths.notFound} element={<NotFoundPage />} />
        <Route path="/partner/*" element={<StripPartner />} />
        <Route path="/partner" element={<StripPartner />} />
        <Route path="/news/*" element={<NewsToBlog />} />
        {featureRoutes.map((r) => (
          <Route key={r.path} path={r.path} element={r.element} />
        ))}
        <Route path="*" element={<BasicPage />} />
      </Route>
    </Routes>
  );
}
