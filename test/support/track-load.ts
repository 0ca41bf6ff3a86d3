/** One call's fate as the sender saw it. */
export interface CallOutcome {
  messageId: string;
  /** HTTP status, or 'no answer' when the connection failed or the client timeout passed. */
  status: number | 'no answer';
  answeredAt: number;
}

/** One `/v1/track` call with its own messageId, as an SDK sends it, with an SDK's client timeout. */
export async function trackCall(
  ingestUrl: string,
  writeKey: string,
  messageId: string,
  userId = 'user-0',
  clientTimeoutMs = 15_000,
): Promise<CallOutcome> {
  let status: CallOutcome['status'];
  try {
    const response = await fetch(`${ingestUrl}/v1/track`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`,
      },
      body: JSON.stringify({ userId, event: 'Load Tick', messageId, properties: { messageId } }),
      signal: AbortSignal.timeout(clientTimeoutMs),
    });
    await response.arrayBuffer();
    status = response.status;
  } catch {
    status = 'no answer';
  }
  return { messageId, status, answeredAt: Date.now() };
}

export interface LoadOptions {
  ingestUrl: string;
  writeKey: string;
  /** Calls in all: the load is bounded. */
  total: number;
  /** Calls come from this many users, so they spread over the topic's partitions. */
  users: number;
  /** Senders working side by side, each waiting for its answer before its next call. */
  concurrency: number;
  /** A sender's pause between calls, which sets the offered rate. */
  pauseMs: number;
  prefix: string;
  /** Called with every outcome as it arrives (e.g. to act when a share of the load is done). */
  onOutcome?: (outcome: CallOutcome, done: number) => void;
}

/** Sends `total` calls and resolves with every outcome, in the order they were answered. */
export async function runTrackLoad(options: LoadOptions): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  let next = 0;
  const sender = async () => {
    while (next < options.total) {
      const i = next++;
      const outcome = await trackCall(
        options.ingestUrl,
        options.writeKey,
        `${options.prefix}-${i}`,
        `user-${i % options.users}`,
      );
      outcomes.push(outcome);
      options.onOutcome?.(outcome, outcomes.length);
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, sender));
  return outcomes;
}

/** Statuses counted, e.g. `{ 200: 1450, 503: 50 }`. */
export function statusCounts(outcomes: CallOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}

/** From `since` on, the longest time with no 200 answer, in ms (for reports, never for assertions). */
export function longestGapWithout200(outcomes: CallOutcome[], since: number): number {
  let last = since;
  let longest = 0;
  for (const o of [...outcomes].sort((a, b) => a.answeredAt - b.answeredAt)) {
    if (o.status !== 200 || o.answeredAt < since) continue;
    longest = Math.max(longest, o.answeredAt - last);
    last = o.answeredAt;
  }
  return longest;
}
