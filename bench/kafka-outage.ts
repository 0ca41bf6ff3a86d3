/**
 * How soon the pipeline works again after a Kafka outage: the only broker (its own, from
 * scripts/kafka/kafka.sh cluster on free ports; never the shared one) is SIGKILLed under a steady
 * load, kept down, and started again; the moments of recovery are printed relative to the broker's
 * start. Runs the scenario test/e2e/kafka-outage.spec.ts asserts the order of.
 *
 *   npm run bench:outage -- [--down-seconds 65] [--restart router|ingest|delivery]
 */
import { parseArgs } from 'node:util';
import { describeTimeline, KafkaOutage } from '../test/support/kafka-outage';
import { SERVICES, ServiceName } from '../test/support/pipeline-processes';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'down-seconds': { type: 'string', default: '65' }, restart: { type: 'string' } },
  });
  const downSeconds = Number(values['down-seconds']);
  if (!Number.isFinite(downSeconds) || downSeconds < 5) throw new Error('--down-seconds must be 5 or more');
  const restart = values.restart as ServiceName | undefined;
  if (restart !== undefined && !SERVICES.includes(restart))
    throw new Error(`--restart must be one of ${SERVICES.join(', ')}`);

  const outage = new KafkaOutage({
    downMs: downSeconds * 1000,
    restartWhileDown: restart,
    label: 'bench-outage',
  });
  try {
    const run = await outage.run();
    const acknowledged = run.calls.filter((c) => c.status === 200).length;
    console.log(`broker down ${downSeconds} s${restart ? `, ${restart} restarted meanwhile` : ''}`);
    console.table(describeTimeline(run.timeline));
    console.log(
      `calls: ${run.calls.length}, acknowledged: ${acknowledged}, acknowledged but not delivered: ${run.missingAmongAcknowledged.length}`,
    );
  } finally {
    await outage.stop();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
