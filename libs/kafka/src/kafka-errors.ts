/** The fields of kafkajs's errors that tell what went wrong, on any error of a chain. */
interface KafkaErrorLink {
  name?: string;
  /** The protocol's name for a broker's answer (LEADER_NOT_AVAILABLE, …). */
  type?: string;
  cause?: unknown;
  errors?: unknown[];
  retriable?: boolean;
}

/**
 * Whether `error`, or any error in its chain, passes `test`. kafkajs wraps what its retries gave
 * up on in a non-retriable error whose `cause` holds the broker's answer (a leader election on a
 * broker still loading its partitions, say), and a call over several topics or brokers collects
 * theirs in `errors`.
 */
function someInChain(error: unknown, test: (link: KafkaErrorLink) => boolean): boolean {
  const e = error as KafkaErrorLink | null | undefined;
  if (!e) return false;
  return test(e) || someInChain(e.cause, test) || (e.errors ?? []).some((inner) => someInChain(inner, test));
}

/** Whether a broker answered this protocol error type anywhere in `error`'s chain. */
export function hasKafkaErrorType(error: unknown, type: string): boolean {
  return someInChain(error, (e) => e.type === type);
}

const TRANSIENT = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
  'NOT_CONTROLLER',
  'REQUEST_TIMED_OUT',
]);

/** Whether the brokers answered with something that passes by itself, so the step is worth trying again. */
export function isTransientKafkaError(error: unknown): boolean {
  return (
    someInChain(error, (e) => TRANSIENT.has(e.type ?? '')) ||
    (error as KafkaErrorLink | null | undefined)?.retriable === true
  );
}

/** kafkajs's errors for a broker it cannot connect to. */
const CONNECTION_ERRORS = new Set(['KafkaJSConnectionError', 'KafkaJSConnectionClosedError']);

/** Whether `error` comes of brokers that could not be connected to: away, not merely refusing. */
export function isBrokersAwayError(error: unknown): boolean {
  return someInChain(error, (e) => CONNECTION_ERRORS.has(e.name ?? ''));
}
