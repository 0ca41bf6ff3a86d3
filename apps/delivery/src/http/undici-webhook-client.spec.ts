import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { PRIVATE_ADDRESS_ERROR_CODE, TIMEOUT_ERROR_CODE } from '../outcome/classify-outcome';
import { systemClock } from '../clock';
import { UndiciWebhookClient } from './undici-webhook-client';

/** A real receiver on 127.0.0.1 that answers each request with `answer`. */
async function receiver(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?token=t`, server, bodies };
}

const post = (client: UndiciWebhookClient, url: string, timeoutMs = 2_000) =>
  client.post({
    url,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from('{"a":1}'),
    timeoutMs,
  });

describe('UndiciWebhookClient against a real receiver', () => {
  const servers: Server[] = [];
  const clients: UndiciWebhookClient[] = [];
  const newClient = (connectionsPerOrigin = 4, blockPrivateAddresses = false) => {
    const client = new UndiciWebhookClient({ connectionsPerOrigin, blockPrivateAddresses }, systemClock);
    clients.push(client);
    return client;
  };
  const start = async (answer: (req: IncomingMessage, res: ServerResponse) => void) => {
    const r = await receiver(answer);
    servers.push(r.server);
    return r;
  };

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('sends the body to the path and query, and answers with the status, Retry-After and the error body', async () => {
    const { url, bodies } = await start((req, res) =>
      res.writeHead(429, { 'retry-after': '30' }).end(req.url),
    );
    await expect(post(newClient(), url)).resolves.toEqual({
      status: 429,
      retryAfter: '30',
      body: Buffer.from('/hook?token=t'),
    });
    expect(bodies).toEqual(['{"a":1}']);
  });

  it('keeps the first 1 KB of a non-2xx body, across chunks, and nothing of a 2xx body', async () => {
    let calls = 0;
    const { url } = await start((_req, res) => {
      if (calls++ > 0) return res.writeHead(200).end('fine');
      res.writeHead(500);
      res.write('a'.repeat(1000));
      setImmediate(() => res.end('b'.repeat(4000)));
    });
    const client = newClient(1);
    const failed = await post(client, url);
    expect(failed.status).toBe(500);
    expect(failed.body?.toString()).toBe(`${'a'.repeat(1000)}${'b'.repeat(24)}`);
    await expect(post(client, url)).resolves.toEqual({ status: 200, retryAfter: undefined });
  });

  it('takes the status of a response whose body is over the limit, and the next request still works', async () => {
    let calls = 0;
    const { url } = await start((_req, res) =>
      calls++ === 0 ? res.writeHead(200).end(Buffer.alloc(2 * 1024 * 1024, 'x')) : res.writeHead(204).end(),
    );
    const client = newClient(1);
    await expect(post(client, url)).resolves.toEqual({ status: 200, retryAfter: undefined });
    await expect(post(client, url)).resolves.toEqual({ status: 204, retryAfter: undefined });
  });

  it('times out a receiver that never answers, and a request queued behind it counts its timeout from the queue', async () => {
    const { url } = await start(() => undefined);
    const client = newClient(1);
    const settled: string[] = [];
    const track = (name: string, request: Promise<unknown>) => request.finally(() => settled.push(name));
    // The queued request's short timeout must fire while the long one still holds the only connection.
    const results = await Promise.allSettled([
      track('holding', post(client, url, 5_000)),
      track('queued', post(client, url, 300)),
    ]);
    expect(results.map((r) => r.status === 'rejected' && (r.reason as { code?: string }).code)).toEqual([
      TIMEOUT_ERROR_CODE,
      TIMEOUT_ERROR_CODE,
    ]);
    expect(settled).toEqual(['queued', 'holding']);
  });

  it('rejects with the transport error when nothing listens', async () => {
    const { url, server } = await start(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    await expect(post(newClient(), url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('refuses a private address when told to, before sending anything', async () => {
    const { url, bodies } = await start((_req, res) => res.writeHead(200).end());
    await expect(post(newClient(4, true), url)).rejects.toMatchObject({ code: PRIVATE_ADDRESS_ERROR_CODE });
    expect(bodies).toEqual([]);
  });
});
