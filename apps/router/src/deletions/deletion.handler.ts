import { Inject, Injectable } from '@nestjs/common';
import { KafkaRecord, RecordBatch } from '@switchyard/kafka';
import type { Logger } from 'pino';
import { decodeJson, DeletionRequested, TopicNames, validateDeletionRequested } from '@switchyard/contracts';
import { Workspace } from '@switchyard/config';
import { Span } from '@switchyard/telemetry';
import { BatchContext, BatchHandler, HandledBatch, tracedOutputs } from '../pipeline/batch-handler';
import { deadLetter, markDeadLettered } from '../pipeline/dead-letter';
import { OutputRecord } from '../pipeline/output-record';
import { deliveryRecords } from '../routing/delivery-records';
import { LOGGER, TOPICS } from '../router.tokens';
import { deleteNotifications } from './deletion-fan-out';

/** Deletions topic → delete notifications as delivery jobs; unreadable requests → dead letters. */
@Injectable()
export class DeletionHandler implements BatchHandler {
  constructor(
    private readonly workspace: Workspace,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(batch: RecordBatch, { consumerGroup }: BatchContext): Promise<HandledBatch> {
    const outputs = tracedOutputs(batch, consumerGroup, (message, span) => this.fanOut(batch, message, span));
    return { outputs, changelog: [] };
  }

  private fanOut(batch: RecordBatch, message: KafkaRecord, span: Span): OutputRecord[] {
    const decoded = decodeJson<DeletionRequested>(message.value);
    const problems = decoded.ok ? validateDeletionRequested(decoded.value) : [];
    if (!decoded.ok || problems.length > 0) {
      const reason = decoded.ok
        ? `invalid deletion request: ${problems.map((p) => `${p.field}: ${p.reason}`).join('; ')}`
        : decoded.reason;
      this.logger.warn(
        { topic: batch.topic, offset: message.offset, reason },
        'deletion request dead-lettered',
      );
      markDeadLettered(span, 'unreadable', reason);
      return [
        deadLetter(
          this.topics.eventsDead,
          { topic: batch.topic, partition: batch.partition, message },
          reason,
        ),
      ];
    }
    const notifications = deleteNotifications(decoded.value, this.workspace);
    this.logger.info(
      { requestId: decoded.value.requestId, notifications: notifications.length },
      'deletion request fanned out',
    );
    span.setAttribute('switchyard.request_id', decoded.value.requestId);
    return notifications.flatMap((n) => deliveryRecords(this.topics.deliveries, n.destinations, n.message));
  }
}
