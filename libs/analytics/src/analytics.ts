import { EventEmitter } from 'node:events';
import { deliverBatch } from './batch-delivery';
import { BatchDispatcher } from './batch-dispatcher';
import { DebugLog, debugRequested, stderrDebugLog } from './debug-log';
import { ClientClosedError, DeliveryError, FlushError, QueueFullError } from './errors';
import { encodeMessage } from './message-encoding';
import type {
  AliasMessage,
  CallType,
  GroupMessage,
  IdentifyMessage,
  MessagesByType,
  PageMessage,
  ScreenMessage,
  TrackMessage,
} from './messages';
import {
  AnalyticsOptions,
  AnalyticsSettings,
  MAX_BATCH_BYTES,
  MAX_MESSAGE_BYTES,
  resolveSettings,
} from './settings';
import { fetchTransport } from './transport';
import { LIBRARY_NAME, LIBRARY_VERSION } from './version';

interface AnalyticsEvents {
  /** A batch that was not delivered (refused, or out of attempts). */
  error: [DeliveryError];
}

/**
 * A client bound to one source's write key. Each call validates its record, queues it and
 * returns its messageId at once; it never waits on the network. Batches go to
 * `<endpoint>/v1/batch` in the background.
 *
 * A call throws ValidationError, MessageTooLargeError, QueueFullError or ClientClosedError, and
 * then nothing was queued. Delivery failures come later, as 'error' events (written to stderr
 * when nobody listens) and as the rejection of the flush() or close() that covers them.
 */
export class Analytics extends EventEmitter<AnalyticsEvents> {
  private readonly settings: AnalyticsSettings;
  private readonly dispatcher: BatchDispatcher;
  private readonly log: DebugLog | undefined;
  private closing: Promise<void> | undefined;

  constructor(writeKey: string, options: AnalyticsOptions = {}) {
    super();
    this.settings = resolveSettings(writeKey, options);
    const { batchUrl, requestTimeoutMs, retry } = this.settings;
    this.log = (options.debug ?? debugRequested(process.env.DEBUG)) ? stderrDebugLog() : undefined;
    const transport = fetchTransport(
      batchUrl,
      writeKey,
      requestTimeoutMs,
      `${LIBRARY_NAME}/${LIBRARY_VERSION} node/${process.versions.node}`,
    );
    this.dispatcher = new BatchDispatcher(
      { ...this.settings, maxBatchBytes: MAX_BATCH_BYTES },
      (messages, body) => deliverBatch(messages, body, { transport, schedule: retry, log: this.log }),
      (failure) => this.reportFailure(failure),
    );
    this.log?.(
      `client for ${batchUrl}: flushAt ${this.settings.flushAt}, flushAfter ${this.settings.flushAfterMs} ms`,
    );
  }

  identify(message: IdentifyMessage): string {
    return this.enqueue('identify', message);
  }

  track(message: TrackMessage): string {
    return this.enqueue('track', message);
  }

  page(message: PageMessage): string {
    return this.enqueue('page', message);
  }

  screen(message: ScreenMessage): string {
    return this.enqueue('screen', message);
  }

  group(message: GroupMessage): string {
    return this.enqueue('group', message);
  }

  alias(message: AliasMessage): string {
    return this.enqueue('alias', message);
  }

  /** Messages accepted and not yet delivered or given up on. */
  get queueLength(): number {
    return this.dispatcher.unsettled;
  }

  /**
   * Sends everything queued so far without waiting for a full batch. Resolves when all of it is
   * delivered; rejects with FlushError naming the batches that were not.
   */
  async flush(): Promise<void> {
    const failures = await this.dispatcher.flush();
    if (failures.length > 0) throw new FlushError(failures);
  }

  /** Refuses further calls, then flushes; call it before the process exits. Safe to call more than once. */
  close(): Promise<void> {
    if (!this.closing) {
      this.log?.(`closing with ${this.dispatcher.unsettled} message(s) unsettled`);
      this.closing = this.flush();
    }
    return this.closing;
  }

  private enqueue<T extends CallType>(type: T, record: MessagesByType[T]): string {
    if (this.closing) throw new ClientClosedError();
    const message = encodeMessage(type, record, new Date(), MAX_MESSAGE_BYTES);
    // Refusing here, where the caller can act on it, rather than dropping something later.
    if (this.dispatcher.unsettled >= this.settings.maxQueueSize)
      throw new QueueFullError(this.settings.maxQueueSize);
    this.dispatcher.enqueue(message);
    this.log?.(`queued ${type} ${message.messageId} (${message.bytes} bytes)`);
    return message.messageId;
  }

  private reportFailure(failure: DeliveryError): void {
    this.log?.(failure.message);
    if (this.listenerCount('error') > 0) this.emit('error', failure);
    // Never silent: with no listener the failure still reaches someone.
    else process.stderr.write(`${LIBRARY_NAME}: ${failure.message}\n`);
  }
}
