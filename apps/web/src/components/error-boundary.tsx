import { Button, Stack, Text, Title } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '../lib/i18n';
import { RevealApp } from '../lib/first-screen';

interface State {
  error: Error | null;
}

/** Unexpected errors while rendering show 'Something went wrong.' (spec B 2.14) instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unexpected error while rendering', error, info.componentStack);
  }

  override componentDidUpdate(prev: { resetKey?: string }): void {
    // Navigating elsewhere gives the new page a fresh start.
    if (this.state.error && prev.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <Stack align="center" py={60} role="alert">
        <RevealApp />
        <Title order={1}>{t('errors.somethingWentWrong')}</Title>
        <Text c="dimmed">{this.state.error.message}</Text>
        <Button component="a" href="/">
          {t('errors.goHome')}
        </Button>
      </Stack>
    );
  }
}
