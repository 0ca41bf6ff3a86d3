export * from './webhook-envelope';
