// Moved to the console's frame (features/console/versioned-api.ts), which every console area may use.
export * from '../console/versioned-api';
