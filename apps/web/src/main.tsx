import '@mantine/core/styles.css';
import { MantineProvider, Title, Container, Text } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <MantineProvider>
      <Container py="xl">
        <Title order={1}>CONNECT ON A GLOBAL SCALE</Title>
        <Text>Developers Portal</Text>
      </Container>
    </MantineProvider>
  </StrictMode>,
);
