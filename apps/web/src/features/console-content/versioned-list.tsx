// Moved to the console's frame (features/console/versioned-list.tsx), which every console area may use.
export * from '../console/versioned-list';
