import type { Logger } from 'pino';
import { decodeWorkspaceAudit } from '@switchyard/contracts';
import { KafkaClient, TopicReplica } from '@switchyard/kafka';
import { AuditTrail } from './audit-trail';

/** Fills the audit trail from the audit topic: from its beginning at start, then as changes are made. */
export class AuditFeed {
  private readonly replica: TopicReplica;

  constructor(kafka: KafkaClient, topic: string, trail: AuditTrail, logger: Logger) {
    this.replica = new TopicReplica(
      kafka,
      topic,
      (records) => {
        for (const record of records) {
          if (!record.value) continue;
          try {
            trail.add(decodeWorkspaceAudit(record.value));
          } catch (error) {
            logger.error({ offset: record.offset, reason: (error as Error).message }, 'audit record skipped');
          }
        }
      },
      logger,
    );
  }

  get ready(): boolean {
    return this.replica.caughtUp;
  }

  start(): Promise<void> {
    return this.replica.start();
  }

  stop(): Promise<void> {
    return this.replica.stop();
  }
}
