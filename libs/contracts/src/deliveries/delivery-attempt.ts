/**
 * What became of the job after this request:
 * - `delivered`: this URL answered 2xx;
 * - `next-url`: this URL failed and the next configured URL was tried in the same attempt;
 * - `retry-scheduled` / `dead-lettered`: the attempt ended here and the job went to a retry
 *   topic / the dead-letter topic;
 * - `filtered`: no job was made: the destination's filters kept the call from it (written by the router).
 */
export const ATTEMPT_OUTCOMES = [
  'delivered',
  'next-url',
  'retry-scheduled',
  'dead-lettered',
  'filtered',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** The destination filter rule that kept a call from a destination, and whether it dropped it or left it out of its sample. */
export interface FilteredBy {
  rule: string;
  action: 'drop' | 'sample';
}

/** Bytes of a non-2xx response body an attempt record keeps. */
export const ATTEMPT_BODY_BYTES = 1024;

/**
 * One webhook request delivery made (or could not make), as the attempts topic carries it. The
 * URL itself is never recorded, only its host and position: query strings and credentials in
 * webhook URLs often are secrets.
 */
export interface DeliveryAttempt {
  destinationId: string;
  messageId: string;
  sourceId: string;
  userId?: string;
  anonymousId?: string;
  /** The call's type (track, identify, …) and, for track, its event name. */
  type?: string;
  event?: string;
  /** Position (0-based) of the URL in the destination's list; absent when no URL was tried (destination missing or disabled). */
  urlIndex?: number;
  urlHost?: string;
  /** HTTP status of the answer; absent when there was none (timeout, connection error, open circuit). */
  status?: number;
  /** Retryable: `status`, `timeout`, `connection`, `dns`, `circuit-open`, `unknown`; else `status` (4xx), `permanent` (TLS, private address) or `undeliverable`. Absent on success. */
  errorKind?: string;
  /** The failure as delivery logs it, URL redacted. */
  error?: string;
  durationMs: number;
  /** 1 for the first attempt; a replayed job starts again at 1; 0 when the call was filtered (no attempt made). */
  attempt: number;
  /** When the request started, epoch milliseconds. */
  at: number;
  outcome: AttemptOutcome;
  /** First ATTEMPT_BODY_BYTES of a non-2xx answer's body, as UTF-8. */
  responseBody?: string;
  /** On a `filtered` outcome: the rule that kept the call from the destination. */
  filter?: FilteredBy;
}

/** What one attempts-topic record holds: its attempts, and why any part of it is not one. */
export interface DecodedAttempts {
  attempts: DeliveryAttempt[];
  refused: string[];
}

/**
 * A record of the attempts topic carries many attempts, as a JSON array: Kafka's per-record cost
 * (in kafkajs, the encoding; at the broker, the bookkeeping) paid once per array rather than once
 * per webhook request. No key: readers order a job's attempts by their time.
 */
export function encodeDeliveryAttempts(attempts: readonly DeliveryAttempt[]): string {
  return JSON.stringify(attempts);
}

const OPEN = 0x5b; // [
const SEPARATOR = 0x2c; // ,
const CLOSE = 0x5d; // ]
/** Most UTF-8 bytes one UTF-16 code unit of a JavaScript string can take. */
const MAX_BYTES_PER_CHAR = 3;

/** A finished attempts-topic value and how many attempts it holds. */
export interface AttemptsValue {
  value: Buffer;
  attempts: number;
}

/**
 * Builds an attempts-topic value (the JSON array `encodeDeliveryAttempts` writes) one attempt at
 * a time: each attempt is encoded as it is added, into one reused buffer outside the JS heap. A
 * value that waits for company then holds bytes, not hundreds of objects that outlive a
 * young-generation collection and get copied and promoted (in delivery that was GC work on every
 * webhook request).
 */
export class DeliveryAttemptsWriter {
  private buffer: Buffer;
  private length = 0;
  private attempts = 0;

  /** `capacity`: the bytes a value aims to stay under; an attempt larger than that still makes a value of its own. */
  constructor(private readonly capacity: number) {
    this.buffer = Buffer.allocUnsafeSlow(capacity);
  }

  /** Adds an attempt. When it does not fit beside those already added, they are finished first and their value returned. */
  add(attempt: DeliveryAttempt): AttemptsValue | undefined {
    const json = JSON.stringify(attempt);
    // The exact byte length only when the cheap upper bound says it may not fit.
    const room = this.capacity - this.length - 2;
    const size = json.length * MAX_BYTES_PER_CHAR <= room ? json.length : Buffer.byteLength(json);
    const finished = size > room && this.attempts > 0 ? this.take() : undefined;
    if (size + 2 > this.capacity - this.length)
      this.buffer = Buffer.concat([this.buffer.subarray(0, this.length)], this.length + size + 2);
    this.buffer[this.length++] = this.attempts === 0 ? OPEN : SEPARATOR;
    this.length += this.buffer.write(json, this.length);
    this.attempts++;
    return finished;
  }

  /** The value of the attempts added so far (a copy; undefined when there are none), and starts a new one. */
  take(): AttemptsValue | undefined {
    if (this.attempts === 0) return undefined;
    this.buffer[this.length++] = CLOSE;
    const finished = { value: Buffer.from(this.buffer.subarray(0, this.length)), attempts: this.attempts };
    if (this.buffer.length > this.capacity) this.buffer = Buffer.allocUnsafeSlow(this.capacity);
    this.length = 0;
    this.attempts = 0;
    return finished;
  }
}

/** Reads an attempts-topic value back; what is not an attempt is refused with the reason, never thrown. */
export function decodeDeliveryAttempts(value: Buffer | string | null): DecodedAttempts {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value === null ? '' : value.toString());
  } catch {
    return { attempts: [], refused: ['attempts record: value is not JSON'] };
  }
  if (!Array.isArray(parsed))
    return { attempts: [], refused: ['attempts record: value must be a JSON array of attempts'] };
  const decoded: DecodedAttempts = { attempts: [], refused: [] };
  parsed.forEach((item: unknown, i) => {
    const problems = attemptProblems(item);
    if (problems.length === 0) decoded.attempts.push(item as DeliveryAttempt);
    else decoded.refused.push(`attempts record, item ${i}: ${problems.join('; ')}`);
  });
  return decoded;
}

function attemptProblems(item: unknown): string[] {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return ['must be a JSON object'];
  const a = item as Record<string, unknown>;
  return [
    ...(['destinationId', 'messageId', 'sourceId'] as const)
      .filter((f) => typeof a[f] !== 'string' || a[f] === '')
      .map((f) => `${f} must be a non-empty string`),
    ...(['durationMs', 'attempt', 'at'] as const)
      .filter((f) => typeof a[f] !== 'number')
      .map((f) => `${f} must be a number`),
    ...(ATTEMPT_OUTCOMES.includes(a.outcome as AttemptOutcome)
      ? []
      : [`outcome must be one of ${ATTEMPT_OUTCOMES.join(', ')}`]),
  ];
}
