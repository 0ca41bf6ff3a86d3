export { Analytics } from './analytics';
export {
  AnalyticsError,
  ClientClosedError,
  ConfigurationError,
  DeliveryError,
  FlushError,
  MessageTooLargeError,
  QueueFullError,
  ValidationError,
} from './errors';
export type { FieldError } from './errors';
export type {
  AliasMessage,
  CallType,
  CommonFields,
  GroupMessage,
  IdentifyMessage,
  Identity,
  Integrations,
  JsonMap,
  PageMessage,
  ScreenMessage,
  TrackMessage,
} from './messages';
export type { RetrySchedule } from './retry-policy';
export type { AnalyticsOptions } from './settings';
export { MAX_BATCH_BYTES, MAX_MESSAGE_BYTES } from './settings';
export { LIBRARY_VERSION } from './version';
export { verifyWebhook } from './verify-webhook';
export type {
  VerifyWebhookOptions,
  WebhookHeaders,
  WebhookRefusal,
  WebhookSignatureScheme,
  WebhookVerification,
} from './verify-webhook';
