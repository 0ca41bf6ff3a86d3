import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Call, encodeIngestedEvent, JsonObject, TopicNames } from '@switchyard/contracts';
import { BatchingProducer } from '@switchyard/kafka';
import { annotateActiveSpan, traceRecordCreation } from '@switchyard/telemetry';
import { ingestMetrics, timedProduce } from '../ingest-metrics';
import { LOGGER, TOPICS } from '../ingest.tokens';
import { normaliseCall, RequestContext } from './call-normaliser';

const { accepted } = ingestMetrics();

/** Writes accepted calls to the events topic and resolves once the broker acknowledged all of them. */
@Injectable()
export class TrackingService {
  constructor(
    private readonly producer: BatchingProducer,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async accept(
    sourceId: string,
    messages: JsonObject[],
    request: Omit<RequestContext, 'newMessageId' | 'receivedAt'>,
  ): Promise<Call[]> {
    const context: RequestContext = { ...request, receivedAt: new Date(), newMessageId: randomUUID };
    const calls = messages.map((m) => normaliseCall(m, context));
    // Each record carries this request's trace (its create span's context), whatever Kafka
    // batch it shares with other requests' records.
    const records = traceRecordCreation(
      calls.map((call) => ({ topic: this.topics.events, ...encodeIngestedEvent(sourceId, call) })),
    );
    annotateActiveSpan({
      'switchyard.source_id': sourceId,
      ...(calls.length === 1 ? { 'switchyard.message_id': calls[0].messageId } : {}),
    });
    await timedProduce(this.producer.send(records));
    for (const call of calls) accepted.inc({ type: call.type });
    this.logger.debug({ sourceId, count: calls.length }, 'calls accepted');
    return calls;
  }
}
