import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { ATTEMPT_BODY_BYTES } from '@switchyard/contracts';
import { WebhookResponse } from './webhook-http-client';

/**
 * An undici dispatch handler for webhook responses, of which only the status and Retry-After
 * matter: the body is counted and dropped as it arrives.
 *
 * undici's `request()` wraps every response in a Readable stream and an async resource, which
 * a webhook POST never reads; at thousands of requests a second that wrapping was a tenth of
 * delivery's CPU. A body above `bodyLimit` bytes closes the socket rather than being read on
 * (the status is already known), as `body.dump({ limit })` did. Only a non-2xx answer keeps its
 * first ATTEMPT_BODY_BYTES: the attempt log shows them, and a success's body is never needed.
 */
export class StatusOnlyHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private abortReason: Error | undefined;
  private response: WebhookResponse | undefined;
  private received = 0;
  private kept: Buffer[] | undefined;
  private keptBytes = 0;
  private settled = false;

  constructor(
    private readonly bodyLimit: number,
    private readonly settle: (error: Error | null, response?: WebhookResponse) => void,
  ) {}

  /**
   * Gives up on the request and settles with `reason` now, even when the request still waits
   * for a connection (it is then dropped as soon as it would start).
   */
  abort(reason: Error): void {
    this.abortReason = reason;
    this.finish(reason);
    this.controller?.abort(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason) controller.abort(this.abortReason);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    // 1xx are interim answers; the final one follows.
    if (statusCode < 200) return;
    const retryAfter = headers['retry-after'];
    this.response = {
      status: statusCode,
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
    };
    if (statusCode >= 300) this.kept = [];
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.received += chunk.length;
    if (this.kept && this.keptBytes < ATTEMPT_BODY_BYTES) {
      const part = chunk.subarray(0, ATTEMPT_BODY_BYTES - this.keptBytes);
      // A copy: undici may reuse the chunk's memory once this returns.
      this.kept.push(Buffer.from(part));
      this.keptBytes += part.length;
    }
    if (this.received <= this.bodyLimit) return;
    this.finish(null, this.response);
    controller.abort(new Error(`response body over ${this.bodyLimit} bytes; connection closed`));
  }

  onResponseEnd(): void {
    this.finish(null, this.response);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish(error);
  }

  private finish(error: Error | null, response?: WebhookResponse): void {
    if (this.settled) return;
    this.settled = true;
    if (response && this.kept) response.body = Buffer.concat(this.kept);
    this.settle(error, response);
  }
}
