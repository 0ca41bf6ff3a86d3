export * from './workspace-record';
export * from './workspace-audit';
