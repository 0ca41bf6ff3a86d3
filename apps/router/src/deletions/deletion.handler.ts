import { Injectable } from '@nestjs/common';
import { KafkaRecord, RecordBatch } from '@switchyard/kafka';
import { decodeJson, DeletionRequested, validateDeletionRequested } from '@switchyard/contracts';
import { Span } from '@switchyard/telemetry';
import { OutputRecord } from '../pipeline/output-record';
import { deliveryRecords } from '../routing/delivery-records';
import { PerRecordHandler } from '../per-record-handler';
import { deleteNotifications } from './deletion-fan-out';

/** Deletions topic → delete notifications as delivery jobs; unreadable requests → dead letters. */
@Injectable()
export class DeletionHandler extends PerRecordHandler {
  protected outputsOf(batch: RecordBatch, message: KafkaRecord, span: Span): OutputRecord[] {
    const decoded = decodeJson<DeletionRequested>(message.value);
    const problems = decoded.ok ? validateDeletionRequested(decoded.value) : [];
    if (!decoded.ok || problems.length > 0) {
      const reason = decoded.ok
        ? `invalid deletion request: ${problems.map((p) => `${p.field}: ${p.reason}`).join('; ')}`
        : decoded.reason;
      return [this.deadLettered(batch, message, span, 'unreadable', reason, 'deletion request')];
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
