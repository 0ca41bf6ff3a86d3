export * from './bootstrap';
export * from './http-exception.filter';
export * from './nest-logger';
export * from './request-log';
export * from './admin-token.guard';
export * from './request-metrics';
export * from './api-tokens';
