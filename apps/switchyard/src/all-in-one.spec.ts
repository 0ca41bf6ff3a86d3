import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import type { ServiceName } from '@switchyard/config';
import type { ServiceEntry } from '@switchyard/service';
import { Readiness } from '@switchyard/telemetry';
import { planServices, startServices } from './all-in-one';

const plan = (env: NodeJS.ProcessEnv) => planServices({ HOST: '0.0.0.0', ...env });
const names = (env: NodeJS.ProcessEnv) => plan(env).map((s) => s.name);

describe('SWITCHYARD_SERVICES chooses the services of the process', () => {
  it.each([
    ['ingest', ['ingest']],
    ['ingest,router,delivery', ['ingest', 'router', 'delivery']],
    ['console, delivery,router ,ingest', ['ingest', 'router', 'delivery', 'console']],
    ['delivery,console', ['delivery', 'console']],
  ])('%p starts %p, in pipeline order', (value, expected) => {
    expect(names({ SWITCHYARD_SERVICES: value })).toEqual(expected);
  });

  it.each([
    [{}, /SWITCHYARD_SERVICES must be set/],
    [{ SWITCHYARD_SERVICES: '' }, /SWITCHYARD_SERVICES must be set/],
    [
      { SWITCHYARD_SERVICES: 'ingest,billing' },
      /SWITCHYARD_SERVICES must list services to run.*"ingest,billing"/,
    ],
    [{ SWITCHYARD_SERVICES: 'ingest,,router' }, /SWITCHYARD_SERVICES must list/],
    [
      { SWITCHYARD_SERVICES: 'router,router' },
      /SWITCHYARD_SERVICES must list services to run, comma-separated, each once/,
    ],
    [
      { SWITCHYARD_SERVICES: 'ingest', INGEST_PORT: 'http' },
      /INGEST_PORT must be a whole number from 0 to 65535/,
    ],
    [
      { SWITCHYARD_SERVICES: 'ingest,console', CONSOLE_PORT: '8080' },
      /INGEST_PORT and CONSOLE_PORT must differ \(both 8080\)/,
    ],
    [
      { SWITCHYARD_SERVICES: 'ingest', PORT: '9000' },
      /PORT is the port of a service run on its own.*INGEST_PORT/,
    ],
  ])('refuses %p', (env, message) => {
    expect(() => plan(env)).toThrow(message);
  });

  it('gives each service its own port as PORT, by default the port it has on its own', () => {
    const ports = plan({ SWITCHYARD_SERVICES: 'ingest,router,delivery,console', ROUTER_PORT: '9181' }).map(
      (s) => [s.name, s.env.PORT],
    );
    expect(ports).toEqual([
      ['ingest', '8080'],
      ['router', '9181'],
      ['delivery', '8082'],
      ['console', '8083'],
    ]);
  });

  it('points the console at ingest and delivery in the same process unless their URLs are set', () => {
    const console = (env: NodeJS.ProcessEnv) => plan(env).find((s) => s.name === 'console')!.env;
    const beside = console({
      SWITCHYARD_SERVICES: 'ingest,delivery,console',
      INGEST_PORT: '9080',
      DELIVERY_PORT: '9082',
    });
    expect([beside.CONSOLE_INGEST_URL, beside.CONSOLE_DELIVERY_URL]).toEqual([
      'http://127.0.0.1:9080',
      'http://127.0.0.1:9082',
    ]);
    const told = console({
      SWITCHYARD_SERVICES: 'ingest,delivery,console',
      CONSOLE_INGEST_URL: 'https://events.example.com',
    });
    expect([told.CONSOLE_INGEST_URL, told.CONSOLE_DELIVERY_URL]).toEqual([
      'https://events.example.com',
      'http://127.0.0.1:8082',
    ]);
    const alone = console({ SWITCHYARD_SERVICES: 'console' });
    expect([alone.CONSOLE_INGEST_URL, alone.CONSOLE_DELIVERY_URL]).toEqual([undefined, undefined]);
  });
});

describe('the process is one unit to its probes', () => {
  /** A service whose start resolves when the test says, with one check of its own that holds. */
  function service(name: ServiceName) {
    const readiness = new Readiness();
    readiness.register('kafka', () => true);
    const app = { get: () => readiness, close: async () => undefined } as unknown as NestFastifyApplication;
    let listen!: () => void;
    const listening = new Promise<NestFastifyApplication>((resolve) => (listen = () => resolve(app)));
    const entry: ServiceEntry<unknown> = { name, settingsFromEnv: () => ({}), start: () => listening };
    return { readiness, entry, listen };
  }

  it('keeps a started service unready while the services after it are still starting', async () => {
    const ingest = service('ingest');
    const router = service('router');
    const plan = planServices({ HOST: '0.0.0.0', SWITCHYARD_SERVICES: 'ingest,router' });
    const load = async (name: ServiceName) => (name === 'ingest' ? ingest : router).entry;
    const starting = startServices(plan, pino({ level: 'silent' }), load);

    ingest.listen();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ingest.readiness.report()).toEqual({ ready: false, checks: { kafka: true, router: false } });

    router.listen();
    await starting;
    expect(ingest.readiness.report()).toEqual({ ready: true, checks: { kafka: true, router: true } });
    expect(router.readiness.report()).toEqual({ ready: true, checks: { kafka: true, ingest: true } });
  });
});
