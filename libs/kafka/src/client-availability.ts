import type { Logger } from 'pino';
import { Counter, metric } from '@switchyard/telemetry';

/** Clients in an outage in this process (tests run several services); the counter adds their time at scrape time. */
const unavailable = new Set<ClientAvailability>();

function restartsTotal(): Counter {
  return metric(
    'switchyard_kafka_client_restarts_total',
    () =>
      new Counter({
        name: 'switchyard_kafka_client_restarts_total',
        help: 'Times a Kafka consumer gave up (its retries spent, or an error the client does not retry) and was restarted',
        labelNames: ['client'],
      }),
  );
}

function unavailableSecondsTotal(): Counter {
  return metric(
    'switchyard_kafka_unavailable_seconds_total',
    () =>
      new Counter({
        name: 'switchyard_kafka_unavailable_seconds_total',
        help: 'Seconds a Kafka client could not read or write: from its first failure of an outage until it works again',
        labelNames: ['client'],
        collect() {
          for (const client of unavailable) client.account();
        },
      }),
  );
}

/**
 * Whether one Kafka client (a consumer group's member, a producer) works, told to an operator:
 * its owner logs the first failure of an outage at warn (`failed` says which is the first) and
 * later ones at debug, and the recovery is logged here at info with how long the outage lasted.
 * An operator at info level thus sees one line when a client stops and one when it is back,
 * whatever kafkajs retries in between; the metrics count restarts and the seconds unavailable.
 */
export class ClientAvailability {
  private downSince: number | undefined;
  private accountedUntil = 0;
  private readonly restarts = restartsTotal();
  private readonly seconds = unavailableSecondsTotal();

  constructor(
    /** The client's name in logs and in the metrics' `client` label, e.g. a consumer group id. */
    private readonly client: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.restarts.inc({ client }, 0);
    this.seconds.inc({ client }, 0);
  }

  get available(): boolean {
    return this.downSince === undefined;
  }

  /**
   * The client failed at `since` (now, unless the failed work started earlier). True when this
   * opens an outage: the caller logs that failure at warn, and later ones at debug.
   */
  failed(since = this.now()): boolean {
    if (this.downSince !== undefined) return false;
    this.downSince = since;
    this.accountedUntil = since;
    unavailable.add(this);
    return true;
  }

  /** The client gave up and is being restarted. */
  restarted(): void {
    this.restarts.inc({ client: this.client });
  }

  /** The client works again: closes the outage, if there was one. */
  recovered(): void {
    if (this.downSince === undefined) return;
    this.account();
    const outageMs = this.now() - this.downSince;
    this.downSince = undefined;
    unavailable.delete(this);
    this.logger.info(
      { client: this.client, outageSeconds: Math.round(outageMs / 100) / 10 },
      'Kafka client working again',
    );
  }

  /** Adds the outage's time since the last scrape or recovery to the counter. */
  account(): void {
    if (this.downSince === undefined) return;
    const until = this.now();
    this.seconds.inc({ client: this.client }, Math.max(0, until - this.accountedUntil) / 1000);
    this.accountedUntil = until;
  }
}
