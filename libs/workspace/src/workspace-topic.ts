import type { Logger } from 'pino';
import { countSkippedWorkspaceRecord, Workspace } from '@switchyard/config';
import { KafkaClient, TopicReplica } from '@switchyard/kafka';
import { SecretCipher } from './secret-cipher';
import { WorkspaceState } from './workspace-state';

/** A record of the workspace topic, as the reader hands it over. */
export interface WorkspaceTopicRecord {
  key: Buffer | null;
  value: Buffer | null;
  offset: string;
}

/**
 * The workspace as the workspace topic builds it. Each fetched batch is applied in offset order
 * and the live workspace changes once per batch; a record that cannot be applied is skipped with
 * an error line and a metric, and never stops routing. Its version is the topic position it has
 * applied up to, the same on every instance at the same position.
 */
export class WorkspaceTopic extends Workspace {
  private replica: TopicReplica | undefined;
  private followed!: () => void;
  /** Resolves once follow() has read the topic whole. */
  private readonly following = new Promise<void>((resolve) => (this.followed = resolve));

  constructor(
    private readonly state: WorkspaceState,
    private readonly logger: Logger,
  ) {
    super(state.config, 'empty');
  }

  /** The resource records as the topic holds them, for the management API. */
  get resources(): WorkspaceState {
    return this.state;
  }

  /** What seals and opens the topic's secrets; undefined without WORKSPACE_ENCRYPTION_KEYS. */
  get cipher(): SecretCipher | undefined {
    return this.state.cipher;
  }

  /**
   * Reads the topic from its beginning and follows it; resolves once it has applied every record
   * the topic held. Should the topic become unreachable later, the last workspace applied stays.
   */
  async follow(kafka: KafkaClient, topic: string): Promise<void> {
    this.replica = new TopicReplica(kafka, topic, (records) => this.apply(records), this.logger);
    await this.replica.start();
    this.followed();
  }

  /** Applied everything the topic held when it was first read. */
  get ready(): boolean {
    return this.replica?.caughtUp ?? false;
  }

  /** Resolves once every record committed before the call has been applied (and the topic was read whole). */
  async catchUp(): Promise<void> {
    await this.following;
    await this.replica!.catchUp();
  }

  /** Resolves once the record at `offset` of `partition` (one this process wrote) has been applied. */
  async catchUpTo(partition: number, offset: string): Promise<void> {
    await this.following;
    await this.replica!.catchUpTo(partition, offset);
  }

  async stop(): Promise<void> {
    await this.replica?.stop();
    this.close();
  }

  apply(records: readonly WorkspaceTopicRecord[]): void {
    if (records.length === 0) return;
    for (const record of records) {
      const key = record.key?.toString('utf8') ?? '';
      const outcome = this.state.apply(key, record.value);
      if ('skipped' in outcome) {
        countSkippedWorkspaceRecord();
        this.logger.error(
          { key: key.slice(0, 200), offset: record.offset, reason: outcome.skipped },
          'workspace record skipped; the resource keeps its previous state',
        );
      }
    }
    const next = BigInt(records[records.length - 1].offset) + 1n;
    this.replace(this.state.config, `offset-${next}`);
  }
}
