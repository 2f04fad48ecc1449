// Moved to the console's frame (features/console/versioned.ts), which every console area may use.
export * from '../console/versioned';
