export * from './webhook-signature';
