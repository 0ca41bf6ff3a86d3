export * from './request-signer';
export * from './standard-webhooks';
export * from './webhook-signature';
