import { testBrokers } from './kafka-test-kit';

/** What every service under test needs: the test broker, its own namespace and workspace, a free port on 127.0.0.1. */
export function testServiceEnv(namespace: string, workspacePath: string, partitions = 2): NodeJS.ProcessEnv {
  return {
    KAFKA_BROKERS: testBrokers(),
    TOPIC_NAMESPACE: namespace,
    TOPIC_PARTITIONS: String(partitions),
    WORKSPACE_CONFIG: workspacePath,
    PORT: '0',
    HOST: '127.0.0.1',
  };
}
