import type { FastifyInstance } from 'fastify';

interface Waiter {
  bytes: number;
  admit: () => void;
}

/**
 * A budget of request-body bytes held at once, admitted first come, first served.
 *
 * A request holds its body, the parsed calls and their Kafka records until the broker has
 * acknowledged them. Without a bound, memory grows with the number of connections: 256
 * connections sending 50 KB batches took one ingest process past 220 MB. With it, requests over
 * the budget wait before their body is read, so their bytes stay in the socket (TCP pushes back
 * on the sender) and memory stays flat however many clients connect. A request larger than the
 * whole budget is admitted when it is alone.
 */
export class BodyAdmission {
  private held = 0;
  private readonly waiting: Waiter[] = [];

  constructor(readonly budgetBytes: number) {}

  /** Calls `admit` once `bytes` fit in the budget; returns a function that gives them back (or withdraws the wait). */
  request(bytes: number, admit: () => void): () => void {
    let state: 'waiting' | 'admitted' | 'done' = 'waiting';
    const waiter: Waiter = {
      bytes,
      admit: () => {
        state = 'admitted';
        this.held += bytes;
        admit();
      },
    };
    if (this.waiting.length === 0 && this.fits(bytes)) waiter.admit();
    else this.waiting.push(waiter);
    return () => {
      if (state === 'waiting') this.waiting.splice(this.waiting.indexOf(waiter), 1);
      if (state === 'admitted') this.held -= bytes;
      state = 'done';
      this.admitWaiting();
    };
  }

  private fits(bytes: number): boolean {
    return this.held === 0 || this.held + bytes <= this.budgetBytes;
  }

  private admitWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0].bytes)) this.waiting.shift()!.admit();
  }
}

/**
 * Every request with a body passes the admission before Fastify reads it. Its weight is its
 * Content-Length; a compressed or chunked body, whose inflated size is unknown until read,
 * weighs the request limit.
 */
export function registerBodyAdmission(fastify: FastifyInstance, admission: BodyAdmission, maxRequestBytes: number): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done();
    const encoding = request.headers['content-encoding'];
    const length = Number(request.headers['content-length']);
    const plain = encoding === undefined || encoding === 'identity';
    const weight = plain && Number.isFinite(length) ? Math.min(length, maxRequestBytes) : maxRequestBytes;
    // 'close' comes when the response is done or the client went away, admitted or not.
    let release = () => {};
    reply.raw.once('close', () => release());
    release = admission.request(weight, done);
  });
}
