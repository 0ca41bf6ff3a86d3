import { classifyOutcome, CIRCUIT_OPEN_ERROR_CODE } from '../outcome/classify-outcome';
import { parseRetryAfter } from '../retry/retry-schedule';
import { Clock } from '../clock';
import { WebhookHttpClient } from '../http/webhook-http-client';
import { CircuitBreakers } from '../isolation/circuit-breaker';
import { AttemptResult, UrlFailure, UrlRequest } from '../delivery-vocabulary';
import { DispatchPlan } from './prepare-dispatch';

export interface AttemptDeps {
  client: WebhookHttpClient;
  breakers: CircuitBreakers;
  clock: Clock;
  timeoutMs: number;
  /** Observes each request's duration and result (metrics). */
  onRequest?: (seconds: number, result: 'delivered' | 'retry' | 'permanent') => void;
}

/**
 * Stage 3: one attempt. Tries the URLs in configured order and stops at the first 2xx (Segment
 * documents that the remaining URLs are then not tried). The job needs a retry when any URL failed retryably; it
 * fails permanently only when every URL did, so one broken URL cannot sink a job another URL
 * could still take.
 */
export async function makeAttempt(plan: DispatchPlan, deps: AttemptDeps): Promise<AttemptResult> {
  const failures: UrlFailure[] = [];
  let retryAfterMs: number | undefined;
  for (const [urlIndex, target] of plan.targets.entries()) {
    const started = deps.clock.now();
    let statusOrError: number | unknown;
    let retryAfter: string | undefined;
    let responseBody: Buffer | undefined;
    if (!deps.breakers.allow(target.url)) {
      statusOrError = Object.assign(new Error(deps.breakers.openReason(target.url) ?? 'circuit open'), {
        code: CIRCUIT_OPEN_ERROR_CODE,
      });
    } else {
      try {
        const response = await deps.client.post({
          url: target.url,
          headers: target.headers,
          body: plan.body,
          timeoutMs: deps.timeoutMs,
        });
        statusOrError = response.status;
        retryAfter = response.retryAfter;
        responseBody = response.body;
      } catch (error) {
        statusOrError = error;
      }
    }
    const verdict = classifyOutcome(statusOrError);
    const errorKind = verdict.verdict === 'retry' ? verdict.errorKind : undefined;
    const durationMs = deps.clock.now() - started;
    if (errorKind !== 'circuit-open') {
      if (verdict.verdict === 'retry') deps.breakers.recordFailure(target.url, verdict.reason);
      else deps.breakers.recordSuccess(target.url);
      deps.onRequest?.(durationMs / 1000, verdict.verdict);
    }
    const status = typeof statusOrError === 'number' ? statusOrError : undefined;
    const request: UrlRequest = { urlIndex, startedAt: started, durationMs, status, responseBody };
    if (verdict.verdict === 'delivered')
      return { verdict: 'delivered', url: target.url, status: statusOrError as number, request, failures };
    failures.push({
      ...request,
      url: target.url,
      verdict: verdict.verdict,
      reason: verdict.reason,
      errorKind,
    });
    if (verdict.verdict === 'retry') {
      const asked = parseRetryAfter(retryAfter, deps.clock.now());
      if (asked !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, asked);
    }
  }
  const reason = failures.map((f) => `${redact(f.url)}: ${f.reason}`).join('; ');
  return failures.some((f) => f.verdict === 'retry')
    ? { verdict: 'retry', reason, retryAfterMs, failures }
    : { verdict: 'permanent', reason, failures };
}

/** URLs in reasons and logs lose their query string and credentials, which may carry tokens. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '[invalid url]';
  }
}
