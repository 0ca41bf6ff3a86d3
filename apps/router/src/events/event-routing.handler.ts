import { Injectable } from '@nestjs/common';
import { KafkaRecord, RecordBatch } from '@switchyard/kafka';
import { decodeIngestedEvent } from '@switchyard/contracts';
import { metric, Counter, Span } from '@switchyard/telemetry';
import { RouterDeadFailure } from '../pipeline/dead-letter';
import { OutputRecord } from '../pipeline/output-record';
import { routeCall, routedRecords } from '../routing/delivery-records';
import { PerRecordHandler } from '../per-record-handler';

const routed = metric('switchyard_router_calls_total', () => {
  const counter = new Counter({
    name: 'switchyard_router_calls_total',
    help: 'Calls read from the events topic, by outcome',
    labelNames: ['outcome'],
  });
  // Every outcome from 0, so increase() sees the first of each.
  for (const outcome of ['routed', 'no_destination', 'dead_lettered']) counter.inc({ outcome }, 0);
  return counter;
});
const jobsProduced = metric(
  'switchyard_router_delivery_jobs_total',
  () => new Counter({ name: 'switchyard_router_delivery_jobs_total', help: 'Delivery jobs produced' }),
);

/** Events topic → one delivery job per receiving destination; unreadable records → dead letters. */
@Injectable()
export class EventRoutingHandler extends PerRecordHandler {
  protected outputsOf(batch: RecordBatch, message: KafkaRecord, span: Span): OutputRecord[] {
    const read = decodeIngestedEvent(message.value);
    if (!read.ok) return [this.deadLetter(batch, message, span, 'unreadable', read.reason)];
    const { sourceId, call } = read.value;
    span.setAttributes({ 'switchyard.message_id': call.messageId, 'switchyard.source_id': sourceId });
    try {
      const routedCall = routeCall(this.topics, this.workspace.destinationsOf(sourceId), sourceId, call);
      const { jobs } = routedCall;
      span.setAttribute('switchyard.delivery_jobs', jobs.length);
      routed.inc({ outcome: jobs.length > 0 ? 'routed' : 'no_destination' });
      jobsProduced.inc(jobs.length);
      return routedRecords(routedCall);
    } catch (error) {
      // A call that passed validation but cannot be transformed is still one bad record, not a stuck partition.
      return [
        this.deadLetter(batch, message, span, 'unroutable', `cannot route: ${(error as Error).message}`),
      ];
    }
  }

  private deadLetter(
    batch: RecordBatch,
    message: KafkaRecord,
    span: Span,
    failure: RouterDeadFailure,
    reason: string,
  ): OutputRecord {
    routed.inc({ outcome: 'dead_lettered' });
    return this.deadLettered(batch, message, span, failure, reason, 'event');
  }
}
