import { headerString, RecordHeaders } from '../record-headers';
import { DeadFailureAsRead, readDeadFailure } from './dead-failure';

/**
 * The wire format of the delivery-job family: records on the deliveries topic, its retry tiers
 * and its dead-letter topic. One record is one call for one destination:
 * - value: the webhook envelope as the exact JSON bytes to POST and sign, so delivery neither
 *   parses nor re-serialises it (that was a tenth of delivery's CPU). It travels unchanged
 *   through retries, dead letters and replays;
 * - headers: the job's ids, its delivery history and, once dead, why (DELIVERY_RECORD_HEADERS),
 *   beside the W3C trace context;
 * - key: `deliveryKey(...)`.
 * The destination's URLs, headers and secret are looked up in the workspace configuration at
 * delivery time, so secrets never sit in Kafka and a corrected URL applies to jobs waiting for a
 * retry.
 */
export interface DeliveryJobIds {
  destinationId: string;
  sourceId: string;
  messageId: string;
}

/** How far a job has come. A job fresh from the router has made no attempt. */
export interface RetryState {
  /** Attempts made so far. */
  attempt: number;
  firstAttemptAt?: number;
  lastAttemptAt?: number;
  /** Not to be tried before this time (epoch ms); set on records in retry topics. */
  notBefore?: number;
  lastError?: string;
  /**
   * Set on a job its destination's rate limit sent to wait in a retry topic: the send slot held
   * for it (epoch ms). It goes then without taking another, so waiting never costs it its turn.
   */
  throttledUntil?: number;
  /** How often an operator replayed this job from the dead-letter topic. */
  replays: number;
}

/** Why and when a job was dead-lettered. */
export interface DeadMark {
  failure: DeadFailureAsRead;
  deadAt: number;
}

/** A delivery record's headers, decoded. Ids are undefined when absent or empty. */
export interface DeliveryRecordHeaders {
  ids: Partial<DeliveryJobIds>;
  state: RetryState;
  dead?: DeadMark;
  /** The W3C trace context (`traceparent`, `tracestate`), carried unchanged. */
  trace: Record<string, string>;
  /**
   * When ingest received the call (epoch ms), carried unchanged through retries, dead letters and
   * replays, so delivery measures an event's age without parsing the envelope. Absent on jobs
   * written by routers before it existed.
   */
  receivedAt?: number;
}

/** Kafka header names of the family: the one table every writer and reader uses. */
export const DELIVERY_RECORD_HEADERS = {
  destinationId: 'x-switchyard-destination-id',
  sourceId: 'x-switchyard-source-id',
  messageId: 'x-switchyard-message-id',
  attempt: 'x-switchyard-attempt',
  firstAttemptAt: 'x-switchyard-first-attempt-at',
  lastAttemptAt: 'x-switchyard-last-attempt-at',
  notBefore: 'x-switchyard-not-before',
  lastError: 'x-switchyard-last-error',
  throttledUntil: 'x-switchyard-throttled-until',
  replays: 'x-switchyard-replays',
  failure: 'x-switchyard-failure',
  deadAt: 'x-switchyard-dead-at',
  receivedAt: 'x-switchyard-received-at',
} as const;

const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;
const ID_FIELDS = ['destinationId', 'sourceId', 'messageId'] as const;

/** `<messageId>:<destinationId>`: stable across retries and replays. */
export function deliveryJobId(messageId: string, destinationId: string): string {
  return `${messageId}:${destinationId}`;
}

/**
 * Deliveries-topic key: one user's jobs for one destination stay on one partition, in order.
 * Destination and source ids must hold no colon (the workspace's id rule guarantees it), so the
 * key reads unambiguously; an id that would break that is refused here, not written.
 */
export function deliveryKey(destinationId: string, sourceId: string, userKey: string): string {
  for (const [name, id] of [
    ['destinationId', destinationId],
    ['sourceId', sourceId],
  ] as const) {
    if (id.includes(':')) throw new Error(`${name} "${id}" holds a colon, which delivery keys cannot carry`);
  }
  return `${destinationId}:${sourceId}:${userKey}`;
}

export function encodeDeliveryHeaders(record: DeliveryRecordHeaders): Record<string, string> {
  const H = DELIVERY_RECORD_HEADERS;
  const headers: Record<string, string> = { ...record.trace };
  for (const field of ID_FIELDS) {
    const id = record.ids[field];
    if (id) headers[H[field]] = id;
  }
  const { state, dead } = record;
  const put = (name: string, value: string | undefined) => {
    if (value !== undefined) headers[name] = value;
  };
  // Zero counts are left out (absent reads as 0): the router's jobs, the bulk of all records, carry ids and trace only.
  if (state.attempt > 0) put(H.attempt, String(state.attempt));
  if (state.replays > 0) put(H.replays, String(state.replays));
  put(H.firstAttemptAt, iso(state.firstAttemptAt));
  put(H.lastAttemptAt, iso(state.lastAttemptAt));
  put(H.notBefore, iso(state.notBefore));
  put(H.lastError, state.lastError);
  put(H.throttledUntil, iso(state.throttledUntil));
  put(H.failure, dead?.failure);
  put(H.deadAt, iso(dead?.deadAt));
  put(H.receivedAt, iso(record.receivedAt));
  return headers;
}

/** The history of a job the router just wrote: no attempt yet. */
export const NEW_JOB: Readonly<RetryState> = Object.freeze({ attempt: 0, replays: 0 });

/** Headers of a job as the router writes it: ids, trace context and the call's receipt time. */
export function newJobHeaders(
  ids: DeliveryJobIds,
  trace: Record<string, string> = {},
  receivedAt?: number,
): Record<string, string> {
  return encodeDeliveryHeaders({ ids, trace, state: NEW_JOB, receivedAt });
}

/** Decodes whatever is there; a record from the router has ids and trace only (attempt 0). */
export function decodeDeliveryHeaders(headers: RecordHeaders): DeliveryRecordHeaders {
  const H = DELIVERY_RECORD_HEADERS;
  const text = (name: string) => headerString(headers, name);
  const ids: Partial<DeliveryJobIds> = {};
  for (const field of ID_FIELDS) ids[field] = text(H[field]) || undefined;
  const trace: Record<string, string> = {};
  for (const name of TRACE_HEADERS) {
    const value = text(name);
    if (value !== undefined) trace[name] = value;
  }
  const failure = text(H.failure);
  const deadAt = time(text(H.deadAt));
  return {
    ids,
    state: {
      attempt: count(text(H.attempt)),
      firstAttemptAt: time(text(H.firstAttemptAt)),
      lastAttemptAt: time(text(H.lastAttemptAt)),
      notBefore: time(text(H.notBefore)),
      lastError: text(H.lastError),
      throttledUntil: time(text(H.throttledUntil)),
      replays: count(text(H.replays)),
    },
    dead: failure === undefined ? undefined : { failure: readDeadFailure(failure), deadAt: deadAt ?? NaN },
    trace,
    receivedAt: time(text(H.receivedAt)),
  };
}

/** The call's receipt time alone: what delivery reads of a delivered job for its age. */
export function decodeReceivedAt(headers: RecordHeaders): number | undefined {
  return time(headerString(headers, DELIVERY_RECORD_HEADERS.receivedAt));
}

/** The retry state alone: what the delivery consumer reads of every retry record to gate it. */
export function decodeNotBefore(headers: RecordHeaders): number | undefined {
  return time(headerString(headers, DELIVERY_RECORD_HEADERS.notBefore));
}

/** The send slot a throttled job holds, alone: read of every job before it is let through its destination's rate limit. */
export function decodeThrottledUntil(headers: RecordHeaders): number | undefined {
  return time(headerString(headers, DELIVERY_RECORD_HEADERS.throttledUntil));
}

const iso = (ms: number | undefined) =>
  ms === undefined || Number.isNaN(ms) ? undefined : new Date(ms).toISOString();

function time(value: string | undefined): number | undefined {
  const ms = value === undefined ? NaN : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function count(value: string | undefined): number {
  const n = Number(value ?? '0');
  return Number.isInteger(n) && n >= 0 ? n : 0;
}
