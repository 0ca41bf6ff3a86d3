import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { localKafkaBrokers } from '../../libs/config/src/local-kafka';

/**
 * Integration and end-to-end suites need a real broker. When KAFKA_BROKERS is set it is used
 * as is; otherwise the local KRaft broker from scripts/kafka is started (idempotent: a broker
 * already running is reused), and its address exported to the test workers.
 */
export default function globalSetup(): void {
  if (process.env.KAFKA_BROKERS) return;
  const script = join(__dirname, '..', '..', 'scripts', 'kafka', 'kafka.sh');
  execFileSync('bash', [script, 'start'], { stdio: 'inherit' });
  process.env.KAFKA_BROKERS = localKafkaBrokers();
}
