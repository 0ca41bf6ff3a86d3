import { Inject } from '@nestjs/common';
import { KafkaRecord, RecordBatch } from '@switchyard/kafka';
import type { Logger } from 'pino';
import { TopicNames } from '@switchyard/contracts';
import { Workspace } from '@switchyard/config';
import { Span } from '@switchyard/telemetry';
import { BatchContext, BatchHandler, HandledBatch, tracedOutputs } from './pipeline/batch-handler';
import { deadLetter, markDeadLettered, RouterDeadFailure } from './pipeline/dead-letter';
import { OutputRecord } from './pipeline/output-record';
import { LOGGER, TOPICS } from './router.tokens';

/**
 * A handler that turns each record on its own into output records, in the record's own span, and
 * keeps no state (no changelog). A record it cannot use goes to the events dead-letter topic.
 */
export abstract class PerRecordHandler implements BatchHandler {
  constructor(
    protected readonly workspace: Workspace,
    @Inject(TOPICS) protected readonly topics: TopicNames,
    @Inject(LOGGER) protected readonly logger: Logger,
  ) {}

  async handle(batch: RecordBatch, { consumerGroup }: BatchContext): Promise<HandledBatch> {
    const outputs = tracedOutputs(batch, consumerGroup, (message, span) =>
      this.outputsOf(batch, message, span),
    );
    return { outputs, changelog: [] };
  }

  protected abstract outputsOf(batch: RecordBatch, message: KafkaRecord, span: Span): OutputRecord[];

  /** `message` as a dead letter, logged as `what` and marked on its span. */
  protected deadLettered(
    batch: RecordBatch,
    message: KafkaRecord,
    span: Span,
    failure: RouterDeadFailure,
    reason: string,
    what: string,
  ): OutputRecord {
    markDeadLettered(span, failure, reason);
    this.logger.warn(
      { topic: batch.topic, partition: batch.partition, offset: message.offset, reason },
      `${what} dead-lettered`,
    );
    return deadLetter(
      this.topics.eventsDead,
      { topic: batch.topic, partition: batch.partition, message },
      reason,
    );
  }
}
