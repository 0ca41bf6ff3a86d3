import { Analytics, RetrySchedule } from '@switchyard/analytics';
import { eventually } from './kafka-test-kit';
import { WebhookReceiver } from './webhook-receiver';

/**
 * Track calls from Switchyard's own client library, one every 5 ms from 50 users, until stopped:
 * the load of the restart suites. The library's retries carry the calls over a restart of ingest
 * on the same port, so every call it does not report as failed must reach the webhook.
 */
export class ClientLoad {
  /** The messageId of every call made. */
  readonly sent = new Set<string>();
  /** The errors the client reported: calls it gave up on. */
  readonly failures: unknown[] = [];
  private readonly client: Analytics;
  private sending = true;
  private readonly loop: Promise<void>;

  constructor(endpoint: string, writeKey: string, retry: Partial<RetrySchedule>) {
    this.client = new Analytics(writeKey, { endpoint, flushAt: 20, flushAfter: 20, retry });
    this.client.on('error', (e) => this.failures.push(e));
    this.loop = (async () => {
      for (let i = 0; this.sending; i++) {
        this.track(`user-${i % 50}`, 'Tick', { i });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
  }

  /** Makes one more call now; returns its messageId. */
  track(userId: string, event: string, properties: Record<string, unknown> = {}): string {
    const messageId = this.client.track({ userId, event, properties });
    this.sent.add(messageId);
    return messageId;
  }

  /** Stops making calls, sends the ones queued and closes the client. */
  async stop(): Promise<void> {
    this.sending = false;
    await this.loop;
    await this.client.close();
  }

  /**
   * The calls made that have not reached `receiver`, once every one has or `timeoutMs` has passed.
   * At least once: a restart may deliver some twice, so this looks for each distinct messageId.
   */
  async missingAt(receiver: WebhookReceiver, timeoutMs = 90_000): Promise<string[]> {
    const missing = () => {
      const delivered = new Set(receiver.received.map((h) => String(h.body.messageId)));
      return [...this.sent].filter((id) => !delivered.has(id));
    };
    await eventually(() => missing().length === 0, timeoutMs, 'every call at the receiver').catch(
      () => undefined,
    );
    return missing();
  }
}
