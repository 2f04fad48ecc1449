// Moved to the console's frame (features/console/editing.tsx), which every console area may use.
export * from '../console/editing';
