import { Center, Loader } from '@mantine/core';

/** Shown while a lazily loaded page or its data arrives. */
export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py={60} role="status" aria-busy="true" aria-label={label}>
      <Loader />
    </Center>
  );
}
