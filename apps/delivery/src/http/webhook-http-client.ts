/** One POST to one webhook URL. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Whole request, connect to the last byte of the response. */
  timeoutMs: number;
}

export interface WebhookResponse {
  status: number;
  retryAfter?: string;
  /** First bytes of a non-2xx answer's body (ATTEMPT_BODY_BYTES); absent on 2xx. */
  body?: Buffer;
}

/**
 * The outgoing HTTP side of delivery. Resolves with any status; rejects with the transport
 * error (its `code` is what `classifyOutcome` reads), `TIMEOUT_ERROR_CODE` when time runs out.
 */
export interface WebhookHttpClient {
  post(request: WebhookRequest): Promise<WebhookResponse>;
  close(): Promise<void>;
}
