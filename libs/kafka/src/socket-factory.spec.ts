import * as net from 'node:net';
import tls from 'node:tls';
import { noDelaySocketFactory } from './socket-factory';

/** A local listener that serves each connection with `serve`. */
async function listening(serve: (peer: net.Socket) => void) {
  const server = net.createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('noDelaySocketFactory', () => {
  afterEach(() => jest.restoreAllMocks());

  it('connects to a plaintext listener with Nagle’s algorithm off and keep-alive on', async () => {
    const { port, close } = await listening((peer) => peer.end());
    const noDelay = jest.spyOn(net.Socket.prototype, 'setNoDelay');
    const keepAlive = jest.spyOn(net.Socket.prototype, 'setKeepAlive');
    try {
      let socket: net.Socket | undefined;
      await new Promise<void>((onConnect) => {
        socket = noDelaySocketFactory({ host: '127.0.0.1', port, onConnect });
      });
      expect(noDelay.mock.contexts).toContain(socket);
      expect(noDelay).toHaveBeenCalledWith(true);
      expect(keepAlive).toHaveBeenCalledWith(true, expect.any(Number));
      socket!.destroy();
    } finally {
      await close();
    }
  });

  it('hands kafkajs each read as its own Buffer, unchanged by the reads after it', async () => {
    const chunks = [Buffer.alloc(100_000, 1), Buffer.from('second response')];
    const { port, close } = await listening((peer) => {
      peer.write(chunks[0]);
      peer.end(chunks[1]);
    });
    try {
      const received: Buffer[] = [];
      const socket = noDelaySocketFactory({ host: '127.0.0.1', port, onConnect: () => undefined });
      socket.on('data', (data: Buffer) => received.push(data));
      await new Promise((resolve) => socket.on('end', resolve));
      socket.destroy();

      // One read buffer serves every socket: a chunk handed on without a copy would now hold the
      // bytes of the reads after it.
      expect(received.length).toBeGreaterThan(1);
      expect(Buffer.concat(received)).toEqual(Buffer.concat(chunks));
    } finally {
      await close();
    }
  });

  it('connects over TLS with the broker’s name for SNI and certificate checks, Nagle’s algorithm off', () => {
    const socket = { setKeepAlive: jest.fn(), setNoDelay: jest.fn() };
    const connect = jest.spyOn(tls, 'connect').mockReturnValue(socket as unknown as tls.TLSSocket);
    const onConnect = () => undefined;
    const ssl = { ca: 'ca-pem', rejectUnauthorized: true };

    noDelaySocketFactory({ host: 'broker-0.example.com', port: 9093, ssl, onConnect });
    noDelaySocketFactory({ host: '10.0.0.7', port: 9093, ssl, onConnect });

    const onread = { buffer: expect.any(Buffer), callback: expect.any(Function) };
    expect(connect.mock.calls).toEqual([
      [
        { host: 'broker-0.example.com', port: 9093, servername: 'broker-0.example.com', ...ssl, onread },
        onConnect,
      ],
      [{ host: '10.0.0.7', port: 9093, ...ssl, onread }, onConnect],
    ]);
    expect(socket.setNoDelay.mock.calls).toEqual([[true], [true]]);
  });
});
