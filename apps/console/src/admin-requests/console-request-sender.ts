import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  BatchingProducer,
  BrokersAwayError,
  DEFAULT_BATCHING,
  KafkaClient,
  KafkaProducer,
  OutgoingRecord,
} from '@switchyard/kafka';
import type { AcknowledgedSender } from '@switchyard/service';
import { KAFKA_CLIENT, LOGGER } from '../console.tokens';
import { ConsoleKafka } from '../kafka/console-kafka';

/**
 * The producer of the management API's audience syncs and deletion requests. It connects at the
 * first request, so a console that never takes one holds no producer, and a broker away at
 * start-up delays nothing but that request. While the console's probe finds no broker answering,
 * a request is refused at once, nothing sent, instead of waiting out the client's retries.
 */
@Injectable()
export class ConsoleRequestSender implements AcknowledgedSender, BeforeApplicationShutdown {
  private connecting: Promise<{ producer: KafkaProducer; batching: BatchingProducer }> | undefined;

  constructor(
    @Inject(KAFKA_CLIENT) private readonly kafka: KafkaClient,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly consoleKafka: ConsoleKafka,
  ) {}

  async send(records: OutgoingRecord[]): Promise<void> {
    if (this.consoleKafka.probe.away) throw new BrokersAwayError();
    const { batching } = await this.connected();
    await batching.send(records);
  }

  async beforeApplicationShutdown(): Promise<void> {
    const connected = await this.connecting?.catch(() => undefined);
    await connected?.batching.drain();
    await connected?.producer.disconnect();
  }

  private connected() {
    this.connecting ??= this.connect().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private async connect() {
    const producer = this.kafka.producer();
    try {
      await producer.connect();
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
    // Requests come one by one from people and scripts: nothing to wait for company for.
    const options = { ...DEFAULT_BATCHING, lingerMs: 0 };
    const batching = new BatchingProducer(producer, options, {
      name: 'console-producer',
      logger: this.logger,
    });
    return { producer, batching };
  }
}
