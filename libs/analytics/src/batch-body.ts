import type { EncodedMessage } from './message-encoding';

/** The /v1/batch request body, built by concatenating the messages' JSON already encoded. */
export function batchBody(messages: readonly EncodedMessage[], sentAt: Date): string {
  return `{"batch":[${messages.map((m) => m.json).join(',')}],"sentAt":"${sentAt.toISOString()}"}`;
}

/** Bytes of a body around its messages: the envelope, whose sentAt is always 24 characters. */
const ENVELOPE_BYTES = Buffer.byteLength(batchBody([], new Date(0)));

/**
 * How many messages from the head of `queue` go in the next batch: at most `maxMessages`, and
 * no more than fit in `maxBodyBytes` with the envelope and commas. At least one, since a single
 * call is bounded far below a request (32 KB against 500 KB).
 */
export function nextBatchSize(
  queue: readonly EncodedMessage[],
  maxMessages: number,
  maxBodyBytes: number,
): number {
  let bytes = ENVELOPE_BYTES;
  let count = 0;
  for (const message of queue) {
    if (count === maxMessages) break;
    const added = message.bytes + (count > 0 ? 1 : 0);
    if (count > 0 && bytes + added > maxBodyBytes) break;
    bytes += added;
    count += 1;
  }
  return count;
}
