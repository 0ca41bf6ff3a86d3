import { HttpException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  AudienceSyncBody,
  AudienceSynced,
  DeletionRequestBody,
  DeletionRequested,
  encodeJson,
  FieldError,
  TopicNames,
  validateAudienceSyncBody,
  validateDeletionRequestBody,
} from '@switchyard/contracts';
import { BrokersAwayError, type OutgoingRecord } from '@switchyard/kafka';
import { traceRecordCreation } from '@switchyard/telemetry';

/** Writes records; resolves once the broker has acknowledged them (BatchingProducer does). */
export interface AcknowledgedSender {
  send(records: OutgoingRecord[]): Promise<void>;
}

/** The workspace's sources, as far as a request needs them. */
export interface SourceLookup {
  source(id: string): unknown;
}

/**
 * Audience syncs and deletion requests: one set of rules and one record per request, on the
 * topics the router reads, whichever endpoint took them (the management API or ingest's older
 * admin paths).
 */
export class AdminRequests {
  constructor(
    private readonly sender: AcknowledgedSender,
    private readonly topics: TopicNames,
    private readonly sources: SourceLookup,
    private readonly logger: Logger,
  ) {}

  /** Every rule the body breaks; a source the workspace lacks only once the body's shape is sound. */
  audienceSyncProblems(body: unknown): FieldError[] {
    const problems = validateAudienceSyncBody(body);
    if (problems.length > 0) return problems;
    const { sourceId } = (body as AudienceSyncBody).computation;
    return this.sources.source(sourceId)
      ? []
      : [{ field: 'computation.sourceId', reason: `unknown source "${sourceId}"` }];
  }

  deletionProblems(body: unknown): FieldError[] {
    const problems = validateDeletionRequestBody(body);
    if (problems.length > 0) return problems;
    const unknown = ((body as DeletionRequestBody).sourceIds ?? []).filter((id) => !this.sources.source(id));
    return unknown.length > 0
      ? [{ field: 'sourceIds', reason: `unknown sources: ${unknown.join(', ')}` }]
      : [];
  }

  /** Keyed by computation id: every page of one audience lands on one partition, in order. */
  async acceptAudienceSync(body: AudienceSyncBody, now = new Date()): Promise<void> {
    const value: AudienceSynced = { ...body, receivedAt: now.toISOString() };
    await this.stored(
      traceRecordCreation([
        { topic: this.topics.audiences, key: body.computation.id, value: encodeJson(value) },
      ]),
    );
  }

  async requestDeletion(body: DeletionRequestBody, now = new Date()): Promise<DeletionRequested> {
    const request: DeletionRequested = {
      requestId: randomUUID(),
      userIds: body.userIds,
      sourceIds: body.sourceIds,
      requestedAt: now.toISOString(),
    };
    await this.stored(
      traceRecordCreation([
        { topic: this.topics.deletions, key: request.requestId, value: encodeJson(request) },
      ]),
    );
    return request;
  }

  /**
   * Resolves once the broker has the records; a Kafka failure is a 503 the caller can retry, which
   * says when the request was refused because no broker answers (the client's own errors name
   * broker addresses, and stay in the log).
   */
  private async stored(records: OutgoingRecord[]): Promise<void> {
    try {
      await this.sender.send(records);
    } catch (error) {
      this.logger.error({ err: error }, 'Kafka did not acknowledge the request');
      const why = error instanceof BrokersAwayError ? `: ${error.message}` : '';
      throw new HttpException(
        {
          success: false,
          error: 'unavailable',
          message: `the request could not be stored${why}; retry later`,
        },
        503,
      );
    }
  }
}
