import { EventEmitter } from 'node:events';
import { followProducerConnection } from './producer-connection';

const EVENTS = { CONNECT: 'producer.connect', DISCONNECT: 'producer.disconnect' } as const;

function fakeProducer() {
  const emitter = new EventEmitter();
  return {
    events: EVENTS,
    on: (event: string, listener: () => void) => (
      emitter.on(event, listener),
      () => emitter.off(event, listener)
    ),
    emit: (event: string) => emitter.emit(event),
  };
}

describe('followProducerConnection', () => {
  it('is not connected before the first connect, then follows connects and disconnects', () => {
    const producer = fakeProducer();
    const connection = followProducerConnection(producer as never);
    expect(connection.connected).toBe(false);
    producer.emit(EVENTS.CONNECT);
    expect(connection.connected).toBe(true);
    producer.emit(EVENTS.DISCONNECT);
    expect(connection.connected).toBe(false);
    producer.emit(EVENTS.CONNECT);
    expect(connection.connected).toBe(true);
  });
});
