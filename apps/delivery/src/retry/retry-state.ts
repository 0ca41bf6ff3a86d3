import { DELIVERY_JOB_HEADERS } from '@switchyard/contracts';
import { headerString } from '@switchyard/kafka';

/** Kafka headers that carry a job's delivery history across retry topics and into the dead-letter topic. */
export const DELIVERY_HEADERS = {
  attempt: 'x-switchyard-attempt',
  firstAttemptAt: 'x-switchyard-first-attempt-at',
  lastAttemptAt: 'x-switchyard-last-attempt-at',
  notBefore: 'x-switchyard-not-before',
  lastError: 'x-switchyard-last-error',
  replays: 'x-switchyard-replays',
  failure: 'x-switchyard-failure',
  deadAt: 'x-switchyard-dead-at',
} as const;

/** Headers passed along unchanged: the trace context and the job's ids. */
const CARRIED_HEADERS = ['traceparent', 'tracestate', ...Object.values(DELIVERY_JOB_HEADERS)];

/** How far a job has come. A job fresh from the router has made no attempt. */
export interface RetryState {
  /** Attempts made so far. */
  attempt: number;
  firstAttemptAt?: number;
  lastAttemptAt?: number;
  /** Not to be tried before this time (epoch ms); set on records in retry topics. */
  notBefore?: number;
  lastError?: string;
  /** How often an operator replayed this job from the dead-letter topic. */
  replays: number;
}

export type KafkaHeaders = Record<string, unknown> | undefined;

export function readRetryState(headers: KafkaHeaders): RetryState {
  const time = (name: string) => {
    const value = headerString(headers, name);
    const ms = value === undefined ? NaN : Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  };
  const count = (name: string) => {
    const value = Number(headerString(headers, name) ?? '0');
    return Number.isInteger(value) && value >= 0 ? value : 0;
  };
  return {
    attempt: count(DELIVERY_HEADERS.attempt),
    firstAttemptAt: time(DELIVERY_HEADERS.firstAttemptAt),
    lastAttemptAt: time(DELIVERY_HEADERS.lastAttemptAt),
    notBefore: time(DELIVERY_HEADERS.notBefore),
    lastError: headerString(headers, DELIVERY_HEADERS.lastError),
    replays: count(DELIVERY_HEADERS.replays),
  };
}

export function writeRetryState(state: RetryState, carriedFrom?: KafkaHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of CARRIED_HEADERS) {
    const value = headerString(carriedFrom, name);
    if (value !== undefined) headers[name] = value;
  }
  headers[DELIVERY_HEADERS.attempt] = String(state.attempt);
  headers[DELIVERY_HEADERS.replays] = String(state.replays);
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  const optional: Array<[string, string | undefined]> = [
    [DELIVERY_HEADERS.firstAttemptAt, iso(state.firstAttemptAt)],
    [DELIVERY_HEADERS.lastAttemptAt, iso(state.lastAttemptAt)],
    [DELIVERY_HEADERS.notBefore, iso(state.notBefore)],
    [DELIVERY_HEADERS.lastError, state.lastError],
  ];
  for (const [name, value] of optional) if (value !== undefined) headers[name] = value;
  return headers;
}
