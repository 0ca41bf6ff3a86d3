import { KafkaAdmin, KafkaClient } from './kafka-port';

export interface BrokerProbeOptions {
  /** How often the cluster is asked for its metadata. */
  intervalMs: number;
  /** Unreachable when no answer came for this long (a hung request counts as no answer). */
  staleAfterMs: number;
}

/**
 * Readiness follows the brokers within about half a second either way: a broker that went away
 * refuses the next probe's connection, and one that came back answers it. A broker that hangs
 * is noticed after `staleAfterMs`.
 */
export const DEFAULT_BROKER_PROBE: BrokerProbeOptions = { intervalMs: 500, staleAfterMs: 2_500 };

/** What work refused or given up because no broker answers says. */
export class BrokersAwayError extends Error {
  constructor() {
    super('no Kafka broker answers');
    this.name = 'BrokersAwayError';
  }
}

/**
 * Whether the cluster answers right now, for readiness. kafkajs's producer and consumer notice a
 * lost broker only when a request of theirs fails and then retry for half a minute, so they are
 * no witness. This asks for the cluster's brokers (describeCluster: metadata without any topic,
 * so the answer does not grow with the cluster) each interval, one attempt each time: a
 * failure makes the probe unreachable at once, silence after `staleAfterMs`, and the first
 * answer after the brokers return makes it reachable again. With several brokers any live one
 * answers, so losing one of three keeps the service ready.
 */
export class BrokerProbe {
  private readonly admin: KafkaAdmin;
  private connected = false;
  /** Whether a probe has finished, answered or not. */
  private asked = false;
  private lastAnswerAt: number | undefined;
  private underWay: Promise<void> | undefined;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    kafka: KafkaClient,
    private readonly options: BrokerProbeOptions = DEFAULT_BROKER_PROBE,
    private readonly now: () => number = Date.now,
  ) {
    this.admin = kafka.admin({ retry: { retries: 0 } });
  }

  get reachable(): boolean {
    return this.lastAnswerAt !== undefined && this.now() - this.lastAnswerAt < this.options.staleAfterMs;
  }

  /** Found not answering by a finished probe: before the first one ends, the brokers are neither up nor away. */
  get away(): boolean {
    return this.asked && !this.reachable;
  }

  /**
   * `work`, unless the brokers are found not answering first: then a rejection that says so, at
   * once if a probe has already found them away, else within an interval of a probe finding it.
   * For work that cannot finish without them (reading a topic to its end) and would otherwise
   * wait out a long bound of its own. Before the first probe has finished, `work` alone decides.
   */
  whileReachable<T>(work: Promise<T>): Promise<T> {
    let watch: NodeJS.Timeout | undefined;
    const lost = new Promise<never>((_, reject) => {
      const check = () => {
        if (this.away) reject(new BrokersAwayError());
      };
      check();
      watch = setInterval(check, this.options.intervalMs);
    });
    return Promise.race([work, lost]).finally(() => clearInterval(watch));
  }

  /** Probes once (so a service that just connected is ready at once), then every interval. */
  async start(): Promise<void> {
    await this.probe();
    this.timer = setInterval(() => void this.probe(), this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    // A probe under way goes on inside kafkajs after a disconnect (it reconnects to ask), and then
    // runs after its service, or its test file, has gone: it is let finish first, for at most
    // staleAfterMs, so that a hung broker does not hold up shutdown.
    await this.settledWithin(this.underWay, this.options.staleAfterMs);
    await this.admin.disconnect();
  }

  /** One probe now (the interval's work); a probe still waiting for its answer is not doubled. */
  probe(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.underWay ??= this.ask().finally(() => (this.underWay = undefined));
    return this.underWay;
  }

  private async ask(): Promise<void> {
    try {
      if (!this.connected) {
        await this.admin.connect();
        this.connected = true;
      }
      await this.admin.describeCluster();
      this.lastAnswerAt = this.now();
    } catch {
      this.lastAnswerAt = undefined;
    }
    this.asked = true;
  }

  private async settledWithin(work: Promise<void> | undefined, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }
}
