import { KafkaProducer } from './kafka-port';

/** Whether a producer is connected now: what a service's readiness and health report. */
export interface ProducerConnection {
  readonly connected: boolean;
}

/** Follows `producer`'s connect and disconnect events from now on; not connected until the first. */
export function followProducerConnection(producer: Pick<KafkaProducer, 'on' | 'events'>): ProducerConnection {
  const state = { connected: false };
  producer.on(producer.events.CONNECT, () => (state.connected = true));
  producer.on(producer.events.DISCONNECT, () => (state.connected = false));
  return state;
}
