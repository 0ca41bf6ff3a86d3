import { Agent, buildConnector } from 'undici';
import { PRIVATE_ADDRESS_ERROR_CODE, TIMEOUT_ERROR_CODE } from '../outcome/classify-outcome';
import { Clock } from './clock';
import { isPrivateAddress } from './private-address';
import { WebhookHttpClient, WebhookRequest, WebhookResponse } from './webhook-http-client';

export interface UndiciClientOptions {
  /** Sockets kept per origin; undici's Agent holds one keep-alive Pool per origin. */
  connectionsPerOrigin: number;
  /** SSRF guard: refuse a socket whose peer address is private, checked after DNS, before any byte is sent. */
  blockPrivateAddresses: boolean;
  /** Extra TLS options (tests pass a CA here; production trusts the system's roots only). */
  tls?: { ca?: string | Buffer };
}

/** Response bodies are read and thrown away (they free the socket for keep-alive); past this size the socket is closed instead. */
const RESPONSE_BODY_LIMIT = 64 * 1024;

export class UndiciWebhookClient implements WebhookHttpClient {
  private readonly agent: Agent;

  constructor(
    options: UndiciClientOptions,
    private readonly clock: Clock,
  ) {
    this.agent = new Agent({
      connections: options.connectionsPerOrigin,
      keepAliveTimeout: 30_000,
      connect: guardedConnector(options),
    });
  }

  async post(request: WebhookRequest): Promise<WebhookResponse> {
    const url = new URL(request.url);
    const abort = new AbortController();
    let timedOut = false;
    const cancelTimer = this.clock.schedule(request.timeoutMs, () => {
      timedOut = true;
      abort.abort();
    });
    try {
      const response = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: abort.signal,
      });
      await response.body.dump({ limit: RESPONSE_BODY_LIMIT });
      if (timedOut) throw timeoutError(request.timeoutMs);
      const retryAfter = response.headers['retry-after'];
      return { status: response.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter };
    } catch (error) {
      throw timedOut ? timeoutError(request.timeoutMs) : error;
    } finally {
      cancelTimer();
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`no complete response within ${timeoutMs} ms`), { code: TIMEOUT_ERROR_CODE });
}

function guardedConnector(options: UndiciClientOptions): buildConnector.connector {
  const connect = buildConnector({ ...options.tls, keepAlive: true });
  if (!options.blockPrivateAddresses) return connect;
  return (connectOptions, callback) =>
    connect(connectOptions, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('no socket'), null);
      const address = socket.remoteAddress ?? '';
      if (!isPrivateAddress(address)) return callback(null, socket);
      socket.destroy();
      const refused = Object.assign(new Error(`refused to connect to ${connectOptions.hostname}: address ${address} is private or loopback`), {
        code: PRIVATE_ADDRESS_ERROR_CODE,
      });
      callback(refused, null);
    });
}
