/** One broken rule of a call, naming the field to fix (the same shape ingest answers with). */
export interface FieldError {
  field: string;
  reason: string;
}

/** Base of every error this library throws or reports, so callers can catch them as one kind. */
export class AnalyticsError extends Error {
  override name = 'AnalyticsError';
}

/** Thrown by a call whose record breaks the Tracking API's rules; nothing was queued. */
export class ValidationError extends AnalyticsError {
  override name = 'ValidationError';

  constructor(
    readonly type: string,
    readonly errors: FieldError[],
  ) {
    super(
      `invalid ${type} call: ${errors.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason)).join('; ')}`,
    );
  }
}

/** Thrown by a call whose JSON is over the per-call limit; nothing was queued. */
export class MessageTooLargeError extends AnalyticsError {
  override name = 'MessageTooLargeError';

  constructor(
    readonly type: string,
    readonly bytes: number,
    readonly limitBytes: number,
  ) {
    super(
      `${type} call is ${bytes} bytes of JSON; the limit is ${limitBytes} bytes per call. Nothing was queued.`,
    );
  }
}

/** Thrown by a call when the queue already holds `maxQueueSize` unsent messages; nothing was queued. */
export class QueueFullError extends AnalyticsError {
  override name = 'QueueFullError';

  constructor(readonly maxQueueSize: number) {
    super(
      `the queue holds ${maxQueueSize} unsent messages (maxQueueSize); the call was refused, nothing was queued`,
    );
  }
}

/** Thrown by a call made after close(). */
export class ClientClosedError extends AnalyticsError {
  override name = 'ClientClosedError';

  constructor() {
    super('the client is closed; create a new one to send more calls');
  }
}

/** Thrown by the constructor for an option out of its bounds. */
export class ConfigurationError extends AnalyticsError {
  override name = 'ConfigurationError';
}

/** A batch that was not delivered: refused by the endpoint, or still failing after the last attempt. */
export class DeliveryError extends AnalyticsError {
  override name = 'DeliveryError';

  constructor(
    message: string,
    /** The messages of the batch, none of which were stored. */
    readonly messageIds: string[],
    readonly attempts: number,
    /** The last HTTP status, when there was a response. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Rejection of flush() and close(): the batches among the flushed messages that were not delivered. */
export class FlushError extends AnalyticsError {
  override name = 'FlushError';

  constructor(readonly failures: DeliveryError[]) {
    const lost = failures.reduce((n, f) => n + f.messageIds.length, 0);
    super(
      `${lost} message(s) in ${failures.length} batch(es) were not delivered: ${failures[0]?.message ?? ''}`,
    );
  }
}
