import { Inject, Injectable } from '@nestjs/common';
import { KafkaRecord, RecordBatch } from '@switchyard/kafka';
import type { Logger } from 'pino';
import { AudienceSynced, decodeJson, TopicNames, validateAudienceSynced } from '@switchyard/contracts';
import { Workspace } from '@switchyard/config';
import { Span, traceRecordCreation, withProcessSpanSync } from '@switchyard/telemetry';
import { BatchContext, BatchHandler, consumedRecord, HandledBatch } from '../pipeline/batch-handler';
import { deadLetter, markDeadLettered } from '../pipeline/dead-letter';
import { routeCall, routedRecords } from '../routing/delivery-records';
import { LOGGER, TOPICS } from '../router.tokens';
import { SyncOutcome } from './audience-membership';
import { changelogRecord } from './membership-changelog';
import { exitValue, membershipIdentify } from './membership-identify';
import { MembershipRestorer } from './membership-restorer';
import { MembershipStore } from './membership-store';

/** Heartbeat the group this often while diffing large pages. */
const HEARTBEAT_EVERY_RECORDS = 50;

/**
 * Audiences topic → membership diff → identify calls routed like any other call, plus the
 * changelog records that make the new membership durable (written in the same transaction, or
 * after the calls without transactions). Identify calls go straight to delivery jobs rather
 * than back through the events topic, so the state change and its announcement commit together.
 */
@Injectable()
export class AudienceSyncHandler implements BatchHandler {
  private readonly store = new MembershipStore();

  constructor(
    private readonly workspace: Workspace,
    private readonly restorer: MembershipRestorer,
    @Inject(TOPICS) private readonly topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onAssigned(assignment: Record<string, number[]>): void {
    this.store.assign(assignment[this.topics.audiences] ?? []);
  }

  onCommitFailed(_topic: string, partition: number): void {
    this.store.invalidate(partition);
  }

  async handle(batch: RecordBatch, { heartbeat, consumerGroup }: BatchContext): Promise<HandledBatch> {
    const unrestored = this.store.unrestored(batch.partition);
    if (unrestored.length > 0) {
      const states = await this.restorer.restore(unrestored, heartbeat);
      for (const [partition, state] of states) this.store.install(partition, state);
    }
    const handled: HandledBatch = { outputs: [], changelog: [] };
    for (const [index, message] of batch.messages.entries()) {
      withProcessSpanSync(consumedRecord(batch, message), consumerGroup, (span) =>
        this.apply(batch, message, handled, span),
      );
      if ((index + 1) % HEARTBEAT_EVERY_RECORDS === 0) await heartbeat();
    }
    return handled;
  }

  /**
   * The identify calls and dead letters carry the sync's trace on; the changelog records do not:
   * they are state, kept forever in a compacted topic, and nobody processes them as messages.
   */
  private apply(batch: RecordBatch, message: KafkaRecord, handled: HandledBatch, span: Span): void {
    const decoded = decodeJson<AudienceSynced>(message.value);
    const problems = decoded.ok ? validateAudienceSynced(decoded.value) : [];
    if (!decoded.ok || problems.length > 0) {
      const reason = decoded.ok
        ? `invalid audience sync: ${problems.map((p) => `${p.field}: ${p.reason}`).join('; ')}`
        : decoded.reason;
      this.logger.warn(
        { topic: batch.topic, partition: batch.partition, offset: message.offset, reason },
        'audience sync dead-lettered',
      );
      markDeadLettered(span, 'unreadable', reason);
      handled.outputs.push(
        ...traceRecordCreation([
          deadLetter(
            this.topics.eventsDead,
            { topic: batch.topic, partition: batch.partition, message },
            reason,
          ),
        ]),
      );
      return;
    }
    const sync = decoded.value;
    const outcome = this.diff(batch.partition, sync);
    if (outcome.warning)
      this.logger.warn({ computationId: sync.computation.id, syncId: sync.syncId }, outcome.warning);
    span.setAttributes({
      'switchyard.computation_id': sync.computation.id,
      'switchyard.sync_id': sync.syncId,
      'switchyard.membership_changes': outcome.changes.length,
    });
    const destinations = this.workspace.destinationsOf(sync.computation.sourceId);
    const calls = outcome.changes.flatMap((change) =>
      routedRecords(
        routeCall(this.topics, destinations, sync.computation.sourceId, membershipIdentify(sync, change)),
      ),
    );
    for (const call of traceRecordCreation(calls)) handled.outputs.push(call);
    for (const write of outcome.writes) {
      handled.changelog.push(
        changelogRecord(this.topics.audienceMembership, batch.partition, sync.computation.id, write),
      );
    }
  }

  private diff(partition: number, sync: AudienceSynced): SyncOutcome {
    const audience = this.store.audience(partition, sync.computation.id);
    const leaving = exitValue(sync.computation);
    const asMembers = (members: Array<{ userId: string; value?: unknown }>) =>
      members.map((m) => ({
        userId: m.userId,
        value: sync.computation.class === 'audience' ? true : m.value,
      }));
    if (sync.snapshot) {
      const { page, final, members } = sync.snapshot;
      return audience.applySnapshotPage(sync.syncId, page, final, asMembers(members), leaving);
    }
    return audience.applyDelta(sync.syncId, asMembers(sync.delta!.added), sync.delta!.removed, leaving);
  }
}
