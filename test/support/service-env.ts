import { testBrokers } from './kafka-test-kit';

/**
 * Settings every service under test starts with unless a test sets its own. The produce timeout
 * is generous: on a loaded machine a healthy broker can take seconds to acknowledge, and a 503
 * there would fail a test for the machine's sake; the outage tests set a short one themselves.
 */
export const TEST_SERVICE_DEFAULTS: NodeJS.ProcessEnv = {
  HOST: '127.0.0.1',
  // TEST_SERVICE_LOG_LEVEL=info shows what the services do when chasing a failure.
  LOG_LEVEL: process.env.TEST_SERVICE_LOG_LEVEL ?? 'warn',
  KAFKAJS_NO_PARTITIONER_WARNING: '1',
  INGEST_PRODUCE_TIMEOUT_MS: '30000',
};

/** What every service under test needs: the test broker, its own namespace and workspace, a free port on 127.0.0.1. */
export function testServiceEnv(namespace: string, workspacePath: string, partitions = 2): NodeJS.ProcessEnv {
  return {
    ...TEST_SERVICE_DEFAULTS,
    KAFKA_BROKERS: testBrokers(),
    TOPIC_NAMESPACE: namespace,
    TOPIC_PARTITIONS: String(partitions),
    WORKSPACE_CONFIG: workspacePath,
    PORT: '0',
  };
}
