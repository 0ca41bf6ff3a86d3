import { KafkaConsumer, partitionKey } from '@switchyard/kafka';
import { Clock } from '../clock';

interface Hold {
  topic: string;
  partition: number;
  /** Cancels the timer that resumes it; absent for a hold released when jobs finish. */
  cancel?: () => void;
}

/**
 * Flow control: partitions paused by the delivery consumer, either until a time (a retry
 * record not yet due) or until jobs finish (the partition's in-flight bound was reached).
 * A held partition is rewound to its first untaken record, so nothing is skipped.
 */
export class PartitionHolds {
  private readonly held = new Map<string, Hold>();
  private closed = false;

  constructor(
    private readonly consumer: Pick<KafkaConsumer, 'pause' | 'seek' | 'resume'>,
    private readonly clock: Clock,
  ) {}

  /** Pauses the partition at `offset`; resumes it after `resumeAfterMs`, or at `releaseIfRoom` when undefined. */
  hold(topic: string, partition: number, offset: string, resumeAfterMs?: number): void {
    const key = partitionKey({ topic, partition });
    this.consumer.pause([{ topic, partitions: [partition] }]);
    this.consumer.seek({ topic, partition, offset });
    this.held.get(key)?.cancel?.();
    const cancel =
      resumeAfterMs === undefined ? undefined : this.clock.schedule(resumeAfterMs, () => this.resume(key));
    this.held.set(key, { topic, partition, cancel });
  }

  /** A job of this partition finished: resume it if it waits for room and `hasRoom` says there is. */
  releaseIfRoom(topic: string, partition: number, hasRoom: boolean): void {
    const key = partitionKey({ topic, partition });
    const hold = this.held.get(key);
    if (hold && !hold.cancel && hasRoom) this.resume(key);
  }

  /** After a rebalance every hold is void: the new generation sets where each partition is read from. */
  resumeAll(): void {
    for (const key of [...this.held.keys()]) this.resume(key);
  }

  /** Shutdown: no more resumes, no timers left behind. */
  close(): void {
    this.closed = true;
    for (const hold of this.held.values()) hold.cancel?.();
  }

  private resume(key: string): void {
    const hold = this.held.get(key);
    if (!hold || this.closed) return;
    this.held.delete(key);
    hold.cancel?.();
    this.consumer.resume([{ topic: hold.topic, partitions: [hold.partition] }]);
  }
}
