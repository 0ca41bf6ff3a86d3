import type { KafkaProducer, OutgoingMessage, ProduceRequest, WrittenPartition } from './kafka-port';

/** One partition's share of a produce request the broker has acknowledged with acks = all. */
export interface LocalWrite {
  topic: string;
  partition: number;
  /** The offset of the first message; each next message has the next offset. */
  baseOffset: number;
  messages: readonly OutgoingMessage[];
  /**
   * When the write began, in milliseconds since the epoch, as a decimal string. The broker's
   * copies carry the moment the request was encoded, a moment later (after any metadata refresh
   * the send needed).
   */
  timestamp: string;
}

export type LocalWriteListener = (write: LocalWrite) => void;

/** A produce answer's entry as the patched client returns it: with the messages it wrote. */
type WrittenWithMessages = WrittenPartition & { messages?: readonly OutgoingMessage[] };

/**
 * What this process's producers wrote, told to this process's consumers of the same topics as soon
 * as the broker acknowledges it. Where one process runs several services, the next service's
 * consumer can then start on a record at once instead of after the broker's answer to its pending
 * fetch; the consumer decides whether it may (`takingLocalWrites`). Writes are told per Kafka
 * cluster, named by its bootstrap brokers, so two clusters' topics of one name never meet.
 */
export class LocalWrites {
  private readonly listeners = new Map<string, Set<LocalWriteListener>>();

  /** Calls `listener` with every acknowledged write to `topic`; the returned function stops that. */
  listen(cluster: string, topic: string, listener: LocalWriteListener): () => void {
    const key = topicKey(cluster, topic);
    let listeners = this.listeners.get(key);
    if (!listeners) this.listeners.set(key, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.listeners.delete(key);
    };
  }

  /** Tells the listeners of each written topic what the broker acknowledged there. */
  publish(cluster: string, written: readonly WrittenWithMessages[], timestamp: string): void {
    if (this.listeners.size === 0) return;
    for (const answer of written) {
      const listeners = this.listeners.get(topicKey(cluster, answer.topicName));
      const baseOffset = Number(answer.baseOffset);
      if (!listeners || !answer.messages || !Number.isSafeInteger(baseOffset) || baseOffset < 0) continue;
      const write = {
        topic: answer.topicName,
        partition: answer.partition,
        baseOffset,
        messages: answer.messages,
        timestamp,
      };
      for (const listener of listeners) {
        try {
          listener(write);
        } catch {
          // The write stands whatever a listener does: a failed hand-over is left to the fetch,
          // and must not turn an acknowledged write into a failed send.
        }
      }
    }
  }
}

/** The process's one register: every client of one cluster in this process shares it. */
export const processLocalWrites = new LocalWrites();

/**
 * A producer whose acknowledged writes are published to `writes`. Only writes with acks = all
 * (the client's default): a record the leader alone has acknowledged may yet be lost with it, and
 * must not be handled before it is safe. A transaction's writes are not published: its records
 * are not to be read until it commits.
 */
export function publishingLocalWrites(
  producer: KafkaProducer,
  writes: LocalWrites,
  cluster: string,
): KafkaProducer {
  const publishedAfter = async (
    acks: number | undefined,
    sending: () => Promise<WrittenPartition[]>,
  ): Promise<WrittenPartition[]> => {
    const timestamp = String(Date.now());
    const written = await sending();
    if (acks === undefined || acks === -1) writes.publish(cluster, written, timestamp);
    return written;
  };
  return {
    ...producer,
    sendBatch: (request: ProduceRequest) => publishedAfter(request.acks, () => producer.sendBatch(request)),
    send: (request) => publishedAfter(request.acks, () => producer.send(request)),
  };
}

function topicKey(cluster: string, topic: string): string {
  return `${cluster}\u0000${topic}`;
}
