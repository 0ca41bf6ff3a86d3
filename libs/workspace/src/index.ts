export * from './secret-cipher';
export * from './masking';
export * from './secret-fields';
export * from './workspace-state';
export * from './workspace-topic';
