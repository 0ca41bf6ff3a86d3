import { decimal, flag, integer, integerList, port, text } from '../setting-kinds';
import { settingsTable } from '../settings-table';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delivery's own settings: the webhook request, the retry schedule, and how much work is in flight. */
export const DELIVERY_SETTINGS = settingsTable({
  title: 'Delivery',
  summary: 'Webhook requests, the retry schedule and window, in-flight bounds, circuit breakers.',
  rows: {
    port: port(8082),
    userAgentToken: text({
      env: 'DELIVERY_USER_AGENT',
      default: 'Switchyard',
      accepts: /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/,
      rule: 'must be an HTTP token of 1-64 characters',
      description: 'Product token of the `User-Agent` header, sent as `<token>/1.0`.',
    }),
    requestTimeoutMs: integer({
      env: 'DELIVERY_REQUEST_TIMEOUT_MS',
      default: 5 * SECOND,
      min: 50,
      max: 60 * SECOND,
      description: 'Time for one webhook request, connect to the last byte of the response.',
    }),
    retryScheduleMs: integerList({
      env: 'DELIVERY_RETRY_SCHEDULE_MS',
      default: [10 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, HOUR],
      minItems: 1,
      maxItems: 20,
      min: 10,
      max: 24 * HOUR,
      description:
        'Delay before retry 1, 2, …; the last repeats; must not decrease. One retry topic per entry.',
    }),
    retryJitterRatio: decimal({
      env: 'DELIVERY_RETRY_JITTER',
      default: 0.2,
      min: 0,
      max: 1,
      description:
        'Each delay is stretched by up to this fraction at random (never shortened), so a burst of failures does not retry in lockstep.',
    }),
    retryWindowMs: integer({
      env: 'DELIVERY_RETRY_WINDOW_MS',
      default: 4 * HOUR,
      min: 100,
      max: 7 * 24 * HOUR,
      description:
        'No retry starts later than this after the first attempt; the job is dead-lettered instead.',
    }),
    retryAfterMaxMs: integer({
      env: 'DELIVERY_RETRY_AFTER_MAX_MS',
      default: HOUR,
      min: 0,
      max: 24 * HOUR,
      description: 'The longest `Retry-After` a receiver may ask for; longer requests are cut to this.',
    }),
    /* Room for jobs of healthy destinations to pass those waiting on a dead one (bench/README.md, isolation). */
    maxInFlightPerPartition: integer({
      env: 'DELIVERY_MAX_IN_FLIGHT_PER_PARTITION',
      default: 1000,
      min: 1,
      max: 100_000,
      description: 'Jobs taken from one partition and not finished yet; the partition pauses at this bound.',
    }),
    /* 1,000 jobs of typical events fit; larger events pause the partition sooner. */
    maxInFlightBytesPerPartition: integer({
      env: 'DELIVERY_MAX_IN_FLIGHT_BYTES_PER_PARTITION',
      default: 1024 * 1024,
      min: 64 * 1024,
      max: 1024 * 1024 * 1024,
      description:
        'Record bytes of those jobs; the partition also pauses at this bound, so memory stays flat however large events are.',
    }),
    maxInFlightPerDestination: integer({
      env: 'DELIVERY_MAX_IN_FLIGHT_PER_DESTINATION',
      default: 64,
      min: 1,
      max: 10_000,
      description:
        'Concurrent requests to one destination (also its keep-alive pool size); its further jobs wait in memory.',
    }),
    breakerFailureThreshold: integer({
      env: 'DELIVERY_BREAKER_FAILURE_THRESHOLD',
      default: 5,
      min: 1,
      max: 1000,
      description: 'Consecutive retryable failures of one URL that open its circuit.',
    }),
    breakerOpenMs: integer({
      env: 'DELIVERY_BREAKER_OPEN_MS',
      default: 30 * SECOND,
      min: 10,
      max: HOUR,
      description: 'How long an open circuit fails fast before one probe request is let through.',
    }),
    blockPrivateAddresses: flag({
      env: 'DELIVERY_BLOCK_PRIVATE_ADDRESSES',
      default: false,
      description:
        'SSRF guard: refuse loopback, private and link-local peers, checked after connect, before any byte is sent.',
    }),
    shutdownGraceMs: integer({
      env: 'DELIVERY_SHUTDOWN_GRACE_MS',
      default: 10 * SECOND,
      min: 0,
      max: 10 * MINUTE,
      description:
        'On SIGTERM, how long in-flight jobs may take to finish before the service exits anyway (they are then re-delivered).',
    }),
    commitIntervalMs: integer({
      env: 'DELIVERY_COMMIT_INTERVAL_MS',
      default: 200,
      min: 10,
      max: MINUTE,
      description:
        'How long a finished offset waits before it is committed; no commit timer runs while nothing finishes.',
    }),
    attemptsTopic: flag({
      env: 'DELIVERY_ATTEMPTS_TOPIC',
      default: true,
      description: 'Write one record per webhook request to the attempts topic (what the console shows).',
    }),
  },
  checks: (s) => {
    const schedule = s.retryScheduleMs;
    const problems: string[] = [];
    if (schedule.some((delay, i) => i > 0 && delay < schedule[i - 1]))
      problems.push('DELIVERY_RETRY_SCHEDULE_MS: delays must not decrease');
    if (schedule[0] >= s.retryWindowMs)
      problems.push(
        'DELIVERY_RETRY_WINDOW_MS must be longer than the first retry delay, or nothing is ever retried',
      );
    return problems;
  },
});
