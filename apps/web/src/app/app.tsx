import '@mantine/core/styles.css';
import './global.css';
import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from '../lib/i18n';
import { localeBasename } from '@portico/contracts/locale-path';
import { queryClient } from '../lib/query-client';
import { BrowserRouter } from 'react-router';
import { ErrorBoundary } from '../components/error-boundary';
import { AppRoutes } from './routes';

/**
 * Colours meet WCAG AA contrast (4.5:1 for text, checked with axe-core): Mantine's default primary
 * shade 6 (#228be6) reaches only 3.4:1 against white, shade 8 reaches 4.9:1; in dark mode shade 6
 * on the dark background is the readable one. Dimmed text uses gray 7 instead of gray 6 (3.3:1).
 */
const baseTheme = {
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 6 },
  // Filled buttons and badges pick black or white text by the background's luminance; below 0.18
  // white text reaches 4.5:1, at or above it black text does.
  autoContrast: true,
  luminanceThreshold: 0.18,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'sm',
} as const;

/**
 * Dialogs: the close button is named for screen readers, and the dialog's header is not announced
 * as a second page banner (Mantine renders it as a <header> element).
 */
function dialogDefaults(close: string) {
  const defaultProps = {
    closeButtonProps: { 'aria-label': close },
    attributes: { header: { role: 'presentation' } },
  };
  // Plain theme entries: importing Modal and Drawer here would put them in the first chunk.
  return { Modal: { defaultProps }, Drawer: { defaultProps } };
}

const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    // Light badges, alerts and buttons: Mantine writes shade 9 on a 10 % tint of the colour, which
    // is 2.8:1 (yellow) to 4.7:1 (red); shade 9 darkened by 30 % reaches 5.2:1 to 9.5:1 on every tint.
    ...Object.fromEntries(
      Object.keys(theme.colors).map((c) => [
        `--mantine-color-${c}-light-color`,
        `color-mix(in srgb, var(--mantine-color-${c}-9) 70%, black)`,
      ]),
    ),
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Placeholders stay lighter than typed text yet readable (4.8:1; gray 5 is 2.1:1).
    '--mantine-color-placeholder': '#6b7280',
    // Error texts and invalid inputs: Mantine's red 6 is 3.3:1 on white; red 9 is 5.5:1.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  // Mantine's dark error red (red 8) is 3.4:1 on the dark body; red 5 is 5.6:1 (4.9:1 on inputs).
  dark: { '--mantine-color-error': 'var(--mantine-color-red-5)' },
});

export function App() {
  const { t, locale } = useTranslation();
  const close = t('dialog.close');
  const theme = useMemo(() => createTheme({ ...baseTheme, components: dialogDefaults(close) }), [close]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <ErrorBoundary>
          {/* The language's prefix (`/de`) is the router's basename: every link of the app keeps it. */}
          <BrowserRouter basename={localeBasename(locale)}>
            <AppRoutes />
          </BrowserRouter>
        </ErrorBoundary>
      </QueryClientProvider>
    </MantineProvider>
  );
}
