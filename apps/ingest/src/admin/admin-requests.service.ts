import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  AudienceSyncBody,
  AudienceSynced,
  DeletionRequestBody,
  DeletionRequested,
  encodeJson,
  TopicNames,
} from '@switchyard/contracts';
import { BatchingProducer } from '@switchyard/kafka';
import { traceRecordCreation } from '@switchyard/telemetry';
import { TOPICS } from '../ingest.tokens';

/** Writes admin requests to their topics; resolves once the broker has acknowledged them. */
@Injectable()
export class AdminRequestsService {
  constructor(
    private readonly producer: BatchingProducer,
    @Inject(TOPICS) private readonly topics: TopicNames,
  ) {}

  /** Keyed by computation id: every page of one audience lands on one partition, in order. */
  async acceptAudienceSync(body: AudienceSyncBody, now = new Date()): Promise<void> {
    const value: AudienceSynced = { ...body, receivedAt: now.toISOString() };
    await this.producer.send(
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
    await this.producer.send(
      traceRecordCreation([
        { topic: this.topics.deletions, key: request.requestId, value: encodeJson(request) },
      ]),
    );
    return request;
  }
}
