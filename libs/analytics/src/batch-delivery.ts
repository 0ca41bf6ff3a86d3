import { DeliveryError } from './errors';
import type { DebugLog } from './debug-log';
import type { EncodedMessage } from './message-encoding';
import { AttemptResult, classifyAttempt, nextDelay, parseRetryAfter, RetrySchedule } from './retry-policy';
import type { BatchTransport } from './transport';

export interface DeliveryDeps {
  transport: BatchTransport;
  schedule: RetrySchedule;
  log?: DebugLog;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends one batch body until it is delivered, refused, or out of attempts. Resolves with
 * undefined when delivered and with the DeliveryError otherwise; it never rejects, so the
 * dispatcher has one result type to handle.
 */
export async function deliverBatch(
  messages: readonly EncodedMessage[],
  body: string,
  deps: DeliveryDeps,
): Promise<DeliveryError | undefined> {
  const { transport, schedule, log, random = Math.random, sleep = sleepFor } = deps;
  const messageIds = messages.map((m) => m.messageId);
  for (let attempt = 1; ; attempt += 1) {
    const started = Date.now();
    let result: AttemptResult;
    let retryAfterMs: number | undefined;
    let excerpt = '';
    try {
      const response = await transport(body);
      result = { status: response.status };
      retryAfterMs = parseRetryAfter(response.retryAfter, Date.now());
      excerpt = response.bodyExcerpt;
    } catch (networkError) {
      result = { networkError };
    }
    const verdict = classifyAttempt(result);
    const outcome =
      'status' in result ? `HTTP ${result.status}` : `network error: ${describe(result.networkError)}`;
    log?.(
      `batch of ${messages.length} (${Buffer.byteLength(body)} bytes) attempt ${attempt}/${schedule.maxAttempts}: ${outcome} in ${Date.now() - started} ms`,
    );
    if (verdict === 'delivered') return undefined;

    if (verdict === 'retry' && attempt < schedule.maxAttempts) {
      const delay = nextDelay(attempt, schedule, random(), retryAfterMs);
      log?.(`retrying in ${delay} ms`);
      await sleep(delay);
      continue;
    }
    const why =
      verdict === 'give-up'
        ? `refused with ${outcome}${excerpt ? `: ${excerpt}` : ''}`
        : `still failing after ${attempt} attempt(s), last ${outcome}`;
    const status = 'status' in result ? result.status : undefined;
    const cause = 'networkError' in result ? { cause: result.networkError } : undefined;
    return new DeliveryError(
      `batch of ${messages.length} message(s) not delivered: ${why}`,
      messageIds,
      attempt,
      status,
      cause,
    );
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and keeps the useful part (ECONNREFUSED, timeout…) in the cause.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
