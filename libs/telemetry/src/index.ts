export * from './logger';
export * from './metrics';
export * from './build-info';
export * from './readiness';
export * from './observability.module';
export * from './kafka-trace';
export * from './messaging-attributes';
export * from './http-route';
