import { connect as connectTcp, isIP, OnReadOpts, Socket, TcpNetConnectOpts } from 'node:net';
import { ConnectionOptions, connect as connectTls } from 'node:tls';
import type { ISocketFactoryArgs } from 'kafkajs';

/** The keep-alive probe delay kafkajs's own factory uses. */
const KEEP_ALIVE_DELAY_MS = 60_000;

/**
 * Where every Kafka socket of the process reads into. Node otherwise allocates 64 KB for each read
 * and shrinks it to the bytes read, and the runtime flags map allocations of 32 KB or more on
 * their own (MALLOC_MMAP_THRESHOLD_, config/runtime-flags.env), which would make every read on an
 * event's way a map and an unmap. Here a read costs a copy of its bytes. One buffer serves every
 * socket: each read is copied out before the next one can start.
 */
const readBuffer = Buffer.allocUnsafeSlow(64 * 1024);

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
  // kafkajs listens for 'data'; a socket that reads into its own buffer emits none, so the copy
  // of each read is emitted as one.
  const onread: OnReadOpts = {
    buffer: readBuffer,
    callback: (bytes, buffer) => {
      socket.emit('data', Buffer.from(buffer.subarray(0, bytes)));
      return true;
    },
  };
  const socket: Socket = ssl
    ? connectTls(tlsConnectOptions(host, port, ssl, onread), onConnect)
    : connectTcp({ host, port, onread }, onConnect);
  socket.setKeepAlive(true, KEEP_ALIVE_DELAY_MS);
  socket.setNoDelay(true);
  return socket;
}

/**
 * The broker's name for SNI and certificate checks (an IP address has none), and `onread`, which
 * tls.connect takes as net.connect does though Node's type declarations leave it out.
 */
function tlsConnectOptions(
  host: string,
  port: number,
  ssl: ConnectionOptions,
  onread: OnReadOpts,
): ConnectionOptions & Pick<TcpNetConnectOpts, 'onread'> {
  return { host, port, ...(isIP(host) ? {} : { servername: host }), ...ssl, onread };
}
