import { randomUUID } from 'node:crypto';
import { RunningPipeline, startReceiverPipeline } from '../support/pipeline-processes';
import { TEST_WRITE_KEY } from '../support/workspace-file';

const auth = `Basic ${Buffer.from(`${TEST_WRITE_KEY}:`).toString('base64')}`;
const PROBE_EVERY_MS = 100;

/**
 * After a SIGKILL of a consumer service and an immediate restart (what Kubernetes does),
 * how long until events flow again. The services run with the default session timeout (or the
 * KAFKA_SESSION_TIMEOUT_MS this process has), the setting that decides it: the restarted instance
 * joins as a new member and waits for the dead one's session to expire. Each figure is printed
 * (bench/README.md keeps the figures); what is asserted is that every event sent around the crash
 * arrives.
 */
describe('failover after a SIGKILL of each consumer service', () => {
  let pipeline: RunningPipeline;

  beforeAll(async () => {
    pipeline = await startReceiverPipeline('failover');
  }, 120_000);

  afterAll(() => pipeline?.stop());

  const send = async (messageId: string) => {
    const res = await fetch(`${pipeline.processes.ingest.url}/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      // An integer beyond 2^53 rides along: it must reach the webhook digit for digit.
      body: `{"userId":"user-${messageId.slice(0, 4)}","event":"Probe","messageId":"${messageId}","properties":{"orderId":12345678901234567890}}`,
    });
    if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
  };

  it.each(['router', 'delivery'] as const)(
    '%s: events sent after the crash arrive once it is restarted',
    async (name) => {
      const { receiver, processes } = pipeline;
      await send(`warm-${name}`);
      const [warm] = await receiver.waitFor(1, (h) => h.body.messageId === `warm-${name}`);
      expect(warm.raw.toString()).toContain('"properties":{"orderId":12345678901234567890}');

      const killedAt = Date.now();
      expect(await processes.stopOne(name, 'SIGKILL')).toBe('SIGKILL');
      const sent: string[] = [];
      let probing = true;
      const probes = (async () => {
        while (probing) {
          const id = `${name}-${randomUUID()}`;
          await send(id);
          sent.push(id);
          await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
        }
      })();
      await processes.startAgain(name);
      const readyAt = Date.now();
      const [first] = await receiver.waitFor(
        1,
        (h) => String(h.body.messageId).startsWith(`${name}-`),
        90_000,
      );
      const flowingAt = Date.now();
      probing = false;
      await probes;

      const arrived = await receiver.waitFor(
        sent.length,
        (h) => sent.includes(String(h.body.messageId)),
        180_000,
      );
      expect(new Set(arrived.map((h) => h.body.messageId))).toEqual(new Set(sent));
      expect(first).toBeDefined();
      process.stdout.write(
        `failover ${name}: SIGKILL → restarted and ready ${((readyAt - killedAt) / 1000).toFixed(1)} s → events flowing again ${((flowingAt - killedAt) / 1000).toFixed(1)} s after the kill (KAFKA_SESSION_TIMEOUT_MS ${process.env.KAFKA_SESSION_TIMEOUT_MS ?? '10000, the default'})\n`,
      );
    },
    360_000,
  );
});
