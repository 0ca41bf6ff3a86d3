import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { kafkaConnection } from '@switchyard/config';
import { checkKafkaConnection, createKafka } from '@switchyard/kafka';
import { verifySignature } from '@switchyard/webhooks';
import { freshNamespace } from '../support/kafka-test-kit';
import { LocalKafka } from '../support/local-kafka';
import { PIPELINE_MODES, PipelineProcesses } from '../support/pipeline-processes';
import { freePort, ServiceProcess } from '../support/service-process';
import { WebhookReceiver } from '../support/webhook-receiver';
import { simpleWorkspace, TEST_WRITE_KEY, WorkspaceFile } from '../support/workspace-file';

const SECRET = 'secure-pipeline-shared-secret';
const PASSWORD = 'scram-password-for-tests';

/**
 * The whole pipeline against a broker that only speaks SASL_SSL (SCRAM-SHA-512, a certificate
 * signed by a CA made for the test), as managed Kafka services require; and start-up refusing,
 * with the cause named, when the password or the CA is wrong.
 */
describe('Kafka over SASL_SSL', () => {
  let kafka: Awaited<ReturnType<typeof LocalKafka.secure>>;
  let receiver: WebhookReceiver;
  let workspace: WorkspaceFile;
  let passwordFile: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    kafka = await LocalKafka.secure('switchyard', PASSWORD);
    receiver = await WebhookReceiver.start();
    workspace = new WorkspaceFile(simpleWorkspace([receiver.url()], SECRET));
    // As a Kubernetes Secret mounts it: the password and a trailing newline.
    passwordFile = join(kafka.dir, 'sasl-password');
    writeFileSync(passwordFile, `${PASSWORD}\n`);
    env = {
      KAFKA_BROKERS: kafka.brokers,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: kafka.tls.ca,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'switchyard',
      KAFKA_SASL_PASSWORD_FILE: passwordFile,
      TOPIC_NAMESPACE: freshNamespace('secure'),
      TOPIC_PARTITIONS: '2',
      WORKSPACE_CONFIG: workspace.path,
    };
  }, 120_000);

  afterAll(async () => {
    await receiver?.stop();
    workspace?.remove();
    await kafka?.stop();
  }, 60_000);

  it.each(PIPELINE_MODES)(
    'carries an event from ingest to the webhook, signed, through SASL_SSL only (%s)',
    async (mode) => {
      const messageId = `secure-message-${mode}`;
      const pipeline = await PipelineProcesses.start(env, mode);
      try {
        const response = await fetch(`${pipeline.ingest.url}/v1/track`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Basic ${Buffer.from(`${TEST_WRITE_KEY}:`).toString('base64')}`,
          },
          body: JSON.stringify({ userId: 'secure-user', event: 'Signed Up', messageId }),
        });
        expect(response.status).toBe(200);
        const [hook] = await receiver.waitFor(1, (h) => h.body.messageId === messageId, 60_000);
        expect(hook.body).toMatchObject({ type: 'track', event: 'Signed Up', userId: 'secure-user' });
        expect(verifySignature(SECRET, hook.raw, hook.headers['x-signature'] as string | undefined)).toBe(
          true,
        );
        expect(await pipeline.health('ready')).toEqual({ ingest: 200, router: 200, delivery: 200 });
      } finally {
        await pipeline.stop();
      }
    },
    180_000,
  );

  it('connects with a client certificate alone where the listener requires mTLS', async () => {
    const connection = kafkaConnection({
      kafkaBrokers: kafka.mtlsBrokers,
      kafkaSsl: true,
      kafkaSslCaFile: kafka.tls.ca,
      kafkaSslCertFile: kafka.tls.cert,
      kafkaSslKeyFile: kafka.tls.key,
      kafkaSslRejectUnauthorized: true,
    });
    const client = createKafka('mtls-test', connection, pino({ level: 'silent' }));
    await checkKafkaConnection(client, connection);
    const admin = client.admin();
    await admin.connect();
    const { brokers } = await admin.describeCluster();
    await admin.disconnect();
    expect(brokers.map((b) => `${b.host}:${b.port}`)).toEqual([kafka.mtlsBrokers]);
  }, 60_000);

  /** Starts ingest with `overrides` and returns what made it exit. */
  const startupFailure = async (overrides: NodeJS.ProcessEnv): Promise<string> => {
    const started = ServiceProcess.start('ingest', await freePort(), { ...env, ...overrides });
    const error = await started.then(
      async (service) => {
        await service.stop();
        return new Error('ingest started');
      },
      (e: Error) => e,
    );
    return error.message;
  };

  it('stops start-up, naming SASL and the password variables, when the password is wrong', async () => {
    const message = await startupFailure({
      KAFKA_SASL_PASSWORD_FILE: '',
      KAFKA_SASL_PASSWORD: 'not-the-password',
    });
    expect(message).toMatch(/ingest exited with 1/);
    expect(message).toMatch(/SASL authentication failed for user \\?"switchyard\\?" with scram-sha-512/);
    expect(message).toMatch(/check KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/);
  }, 60_000);

  it('stops start-up, naming KAFKA_SSL_CA_FILE, when the broker certificate is not trusted', async () => {
    const message = await startupFailure({ KAFKA_SSL_CA_FILE: '' });
    expect(message).toMatch(/ingest exited with 1/);
    expect(message).toMatch(
      /certificate of broker 127\.0\.0\.1:\d+ is not trusted \(SELF_SIGNED_CERT_IN_CHAIN/,
    );
    expect(message).toMatch(/set KAFKA_SSL_CA_FILE/);
  }, 60_000);
});
