import { logLevel as KafkaLogLevel, LogEntry, logCreator } from 'kafkajs';
import type { Logger } from 'pino';
// kafkajs's table of protocol errors (code, message, retriable): not in its typings, stable since 1.x.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { errorCodes } = require('kafkajs/src/protocol/error') as {
  errorCodes: Array<{ message: string; retriable: boolean }>;
};

type Level = 'error' | 'warn' | 'info' | 'debug';

const LEVEL_NAMES: Record<number, Level> = {
  [KafkaLogLevel.ERROR]: 'error',
  [KafkaLogLevel.WARN]: 'warn',
  [KafkaLogLevel.INFO]: 'info',
  [KafkaLogLevel.DEBUG]: 'debug',
};

const RETRIABLE_MESSAGES = new Set(errorCodes.filter((e) => e.retriable).map((e) => e.message));

/** kafkajs's messages for a broker it cannot reach or that dropped the connection; it retries them. */
const CONNECTION_LOST =
  /^(Failed to connect to (seed )?broker|Connection error|Connection timeout|Closed connection|Connection closed)/;

/**
 * kafkajs logs every error response of the broker at ERROR before its own retrier handles it, so
 * a broker that is still starting ("the coordinator is loading", "not the leader yet") or two
 * services creating the same topic look like crashes. The caller sees the error only if it is
 * final, and then the service logs it; so a broker's answer is kept at debug here, and only a
 * non-retriable one is a warning.
 */
function brokerResponseLevel(extra: Record<string, unknown>): Level {
  const error = String(extra.error ?? '');
  return RETRIABLE_MESSAGES.has(error) || error === 'Topic creation errors' ? 'debug' : 'warn';
}

/**
 * A consumer "crash" on a retriable error (a broker still loading its groups) is followed by an
 * automatic restart: that is waiting, not failing. A crash that does not restart stays an error.
 */
function errorLevel(message: string, extra: Record<string, unknown>): Level | 'waiting' {
  if (message.startsWith('Response ')) return brokerResponseLevel(extra);
  if (message.startsWith('Restarting the consumer')) return 'debug';
  // The group dropped this member (no heartbeat within the session timeout: a stalled or loaded
  // machine); kafkajs rejoins by itself and the records it held are read again. Worth a warning, no error.
  if (message.startsWith('The coordinator is not aware of this member')) return 'warn';
  // The producer's retrier logs each failed try; the caller sees the error if the last one fails.
  const failedTry = /^Failed to send messages: (.*)$/s.exec(message);
  if (failedTry && (RETRIABLE_MESSAGES.has(failedTry[1]) || CONNECTION_LOST.test(failedTry[1])))
    return 'debug';
  // A broker that is away is tried again each second (KAFKA_RETRY): one line per try would bury the
  // log; the client's first failure of the outage is a warning (ClientAvailability) instead.
  if (CONNECTION_LOST.test(message)) return 'debug';
  const crash = /^Crash: (\w+): (.*)$/s.exec(message);
  // A consumer that spent its retries or lost its broker is restarted by kafkajs; ConsumerRestarter
  // logs that at warn once per outage, so the crash each restart follows is no news.
  if (crash && (crash[1] === 'KafkaJSNumberOfRetriesExceeded' || CONNECTION_LOST.test(crash[2])))
    return 'debug';
  if (crash && RETRIABLE_MESSAGES.has(crash[2])) return 'waiting';
  return 'error';
}

/** kafkajs's "Limiting retries for the idempotent producer" warning, explained once per process. */
const IDEMPOTENT_RETRIES = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';
const IDEMPOTENT_RETRIES_EXPLAINED =
  'idempotent producer with bounded retries: a send that still fails after them is not acknowledged, so its input offset is not committed and it is replayed (never lost; the replay may duplicate, and messageId lets receivers de-duplicate)';

/** A kafkajs logCreator that writes through the service's pino logger at the level each entry deserves. */
export function kafkaLogCreator(logger: Logger): logCreator {
  const kafkaLogger = logger.child({ component: 'kafkajs' });
  const once = new Set<string>();
  const firstTime = (what: string) => !once.has(what) && Boolean(once.add(what));
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...extra } = log;
      if (message === IDEMPOTENT_RETRIES) {
        if (firstTime(message)) kafkaLogger.info(IDEMPOTENT_RETRIES_EXPLAINED);
        return;
      }
      const named = LEVEL_NAMES[level] ?? 'info';
      const chosen = named === 'error' ? errorLevel(message, extra) : named;
      if (chosen !== 'waiting') kafkaLogger[chosen](extra, message);
      else if (firstTime('waiting'))
        kafkaLogger.info(
          { reason: message },
          'waiting for Kafka to be ready; the consumer restarts by itself',
        );
      else kafkaLogger.debug(extra, message);
    };
}
