import Fastify from 'fastify';
import pino from 'pino';
import { registerRequestLog, requestIdOptions } from './request-log';

describe('registerRequestLog', () => {
  it('warns on a 5xx answer, but not on a health probe saying "not ready" (503)', async () => {
    const lines: Array<{ level: number; msg: string; url: string; status: number }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const fastify = Fastify(requestIdOptions);
    registerRequestLog(fastify, logger);
    fastify.get('/health/ready', (_request, reply) => reply.code(503).send({ status: 'error' }));
    fastify.get('/health/live', (_request, reply) => reply.code(500).send({ status: 'broken' }));
    fastify.get('/v1/thing', (_request, reply) => reply.code(503).send({ code: 'unavailable' }));
    try {
      for (const url of ['/health/ready', '/health/live', '/v1/thing'])
        await fastify.inject({ method: 'GET', url });
      expect(
        lines.map(({ level, msg, url, status }) => [pino.levels.labels[level], msg, url, status]),
      ).toEqual([
        ['warn', 'request failed', '/health/live', 500],
        ['warn', 'request failed', '/v1/thing', 503],
      ]);
    } finally {
      await fastify.close();
    }
  });
});
