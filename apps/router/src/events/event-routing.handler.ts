import { Inject, Injectable } from '@nestjs/common';
import type { Batch, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import { TopicNames } from '@switchyard/contracts';
import { WorkspaceConfigStore } from '@switchyard/config';
import { metric, Counter, traceHeaders, withRecordSpanSync } from '@switchyard/telemetry';
import { BatchHandler, HandledBatch } from '../pipeline/batch-handler';
import { deadLetter } from '../pipeline/dead-letter';
import { OutputRecord } from '../pipeline/output-record';
import { routeCall } from '../routing/delivery-records';
import { LOGGER, TOPICS } from '../router.tokens';
import { readIngestedEvent } from './ingested-event-reader';

const routed = metric('switchyard_router_calls_total', () => new Counter({ name: 'switchyard_router_calls_total', help: 'Calls read from the events topic, by outcome', labelNames: ['outcome'] }));
const jobsProduced = metric('switchyard_router_delivery_jobs_total', () => new Counter({ name: 'switchyard_router_delivery_jobs_total', help: 'Delivery jobs produced' }));

/** Events topic → one delivery job per receiving destination; unreadable records → dead letters. */
@Injectable()
export class EventRoutingHandler implements BatchHandler {
  constructor(
    private readonly workspace: WorkspaceConfigStore,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(batch: Batch): Promise<HandledBatch> {
    const outputs = batch.messages.flatMap((message) => this.route(batch, message));
    return { outputs, changelog: [] };
  }

  private route(batch: Batch, message: KafkaMessage): OutputRecord[] {
    const read = readIngestedEvent(message.value);
    if (!read.ok) return [this.deadLetter(batch, message, read.reason)];
    const { sourceId, call } = read.value;
    try {
      // The routing span continues the event's trace, and its jobs carry it on to delivery.
      const attributes = { 'switchyard.message_id': call.messageId, 'switchyard.source_id': sourceId };
      const records = withRecordSpanSync('router route', message.headers, attributes, (span) => {
        const routedRecords = routeCall(this.topics.deliveries, this.workspace.destinationsOf(sourceId), sourceId, call, traceHeaders(span));
        span.setAttribute('switchyard.delivery_jobs', routedRecords.length);
        return routedRecords;
      });
      routed.inc({ outcome: records.length > 0 ? 'routed' : 'no_destination' });
      jobsProduced.inc(records.length);
      return records;
    } catch (error) {
      // A call that passed validation but cannot be transformed is still one bad record, not a stuck partition.
      return [this.deadLetter(batch, message, `cannot route: ${(error as Error).message}`)];
    }
  }

  private deadLetter(batch: Batch, message: KafkaMessage, reason: string): OutputRecord {
    routed.inc({ outcome: 'dead_lettered' });
    this.logger.warn({ topic: batch.topic, partition: batch.partition, offset: message.offset, reason }, 'event dead-lettered');
    return deadLetter(this.topics.eventsDead, { topic: batch.topic, partition: batch.partition, message }, reason);
  }
}
