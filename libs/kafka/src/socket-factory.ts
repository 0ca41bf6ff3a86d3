import { connect as connectTcp, isIP, Socket } from 'node:net';
import { ConnectionOptions, connect as connectTls } from 'node:tls';
import type { ISocketFactoryArgs } from 'kafkajs';

/** The keep-alive probe delay kafkajs's own factory uses. */
const KEEP_ALIVE_DELAY_MS = 60_000;

/** What kafkajs hands a socket factory; `ssl` is unset for a plaintext listener. */
export type SocketArgs = Omit<ISocketFactoryArgs, 'ssl'> & { ssl?: ConnectionOptions };

/**
 * kafkajs's socket factory with Nagle's algorithm off (TCP_NODELAY), as the Java client and the
 * brokers have it. With it on, a request written while an earlier one on the same connection is
 * still unacknowledged (a producer's pipelined produce requests, a commit beside a consumer's
 * long-poll fetch) is held until the broker's TCP acknowledgement, which a delayed ACK can hold
 * back for tens of milliseconds. Each request is one write, so nothing is gained by coalescing.
 */
export function noDelaySocketFactory({ host, port, ssl, onConnect }: SocketArgs): Socket {
  const socket = ssl
    ? connectTls({ host, port, ...(isIP(host) ? {} : { servername: host }), ...ssl }, onConnect)
    : connectTcp({ host, port }, onConnect);
  socket.setKeepAlive(true, KEEP_ALIVE_DELAY_MS);
  socket.setNoDelay(true);
  return socket;
}
