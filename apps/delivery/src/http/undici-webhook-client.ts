import { Agent, buildConnector } from 'undici';
import { PRIVATE_ADDRESS_ERROR_CODE, TIMEOUT_ERROR_CODE } from '../outcome/classify-outcome';
import { Clock } from '../clock';
import { StatusOnlyHandler } from './status-only-handler';
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

/** Distinct webhook URLs remembered parsed; a workspace has at most five per destination. */
const MAX_CACHED_TARGETS = 10_000;

export class UndiciWebhookClient implements WebhookHttpClient {
  private readonly agent: Agent;
  private readonly targets = new Map<string, { origin: string; path: string }>();

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

  post(request: WebhookRequest): Promise<WebhookResponse> {
    return new Promise((resolve, reject) => {
      const { origin, path } = this.target(request.url);
      const handler = new StatusOnlyHandler(RESPONSE_BODY_LIMIT, (error, response) => {
        cancelTimer();
        if (error) reject(error);
        else if (response) resolve(response);
        else reject(new Error('the connection ended without a response'));
      });
      const cancelTimer = this.clock.schedule(request.timeoutMs, () =>
        handler.abort(timeoutError(request.timeoutMs)),
      );
      this.agent.dispatch(
        { origin, path, method: 'POST', headers: request.headers, body: request.body },
        handler,
      );
    });
  }

  /** Origin and path of a webhook URL. URLs come from configuration, so few distinct ones recur for every job. */
  private target(url: string): { origin: string; path: string } {
    let target = this.targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
      // Configuration edits can retire URLs; starting over now and then keeps the cache bounded.
      if (this.targets.size >= MAX_CACHED_TARGETS) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`no complete response within ${timeoutMs} ms`), {
    code: TIMEOUT_ERROR_CODE,
  });
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
      const refused = Object.assign(
        new Error(
          `refused to connect to ${connectOptions.hostname}: address ${address} is private or loopback`,
        ),
        {
          code: PRIVATE_ADDRESS_ERROR_CODE,
        },
      );
      callback(refused, null);
    });
}
