import { randomUUID } from 'node:crypto';
import { encodeWorkspaceAudit, TopicNames } from '@switchyard/contracts';
import { BrokerProbe, KafkaClient, KafkaProducer, WrittenPartition } from '@switchyard/kafka';
import { WorkspaceTopic } from '@switchyard/workspace';
import { WorkspaceChange, WorkspaceLog } from './workspace-admin';

/**
 * The management API's writes: each change and its audit record in one Kafka transaction, so a
 * reader (read-committed, the client's default) sees both or neither. Reads come back through
 * the console's own follower of the workspace topic, which has applied a change once `append`
 * resolves.
 */
export class KafkaWorkspaceLog implements WorkspaceLog {
  private producer: KafkaProducer | undefined;

  constructor(
    private readonly kafka: KafkaClient,
    private readonly topics: TopicNames,
    private readonly workspace: WorkspaceTopic,
    private readonly brokers: Pick<BrokerProbe, 'whileReachable'>,
  ) {}

  async append({ key, value, audit }: WorkspaceChange): Promise<void> {
    const producer = await this.connected();
    const transaction = await producer.transaction();
    let written: WrittenPartition[];
    try {
      written = await transaction.sendBatch({
        acks: -1,
        topicMessages: [
          { topic: this.topics.workspace, messages: [{ key, value }] },
          { topic: this.topics.workspaceAudit, messages: [{ key, value: encodeWorkspaceAudit(audit) }] },
        ],
      });
      await transaction.commit();
    } catch (error) {
      if (transaction.isActive()) await transaction.abort().catch(() => undefined);
      throw error;
    }
    const record = written.find((w) => w.topicName === this.topics.workspace);
    if (record?.baseOffset === undefined) throw new Error('the broker did not say where it wrote the change');
    await this.workspace.catchUpTo(record.partition, record.baseOffset);
  }

  /**
   * Gives up as soon as no broker answers: the topic cannot be read to its end then, and a write
   * waiting on it would hold its caller until the read-to-end bound.
   */
  caughtUp(): Promise<void> {
    return this.brokers.whileReachable(this.workspace.catchUp());
  }

  async stop(): Promise<void> {
    await this.producer?.disconnect();
  }

  private async connected(): Promise<KafkaProducer> {
    if (!this.producer) {
      // Unique per process, as the router's: a stable id would let two consoles fence each other.
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        transactionalId: `${this.topics.workspace}.console.${randomUUID()}`,
      });
      await producer.connect();
      this.producer = producer;
    }
    return this.producer;
  }
}
