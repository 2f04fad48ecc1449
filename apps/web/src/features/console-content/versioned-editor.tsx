// Moved to the console's frame (features/console/versioned-editor.tsx), which every console area may use.
export * from '../console/versioned-editor';
