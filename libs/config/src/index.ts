export * from './settings';
export * from './common-settings';
export * from './workspace-config';
export * from './workspace-config-store';
export * from './workspace-metrics';
export * from './kafka-client-settings';
export * from './kafka-connection';
export * from './topic-settings';
