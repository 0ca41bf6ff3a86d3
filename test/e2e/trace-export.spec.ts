import { freshNamespace } from '../support/kafka-test-kit';
import { OtlpReceiver, SPAN_KIND } from '../support/otlp-receiver';
import { freePort, ServiceProcess } from '../support/service-process';
import { testServiceEnv } from '../support/service-env';
import { simpleWorkspace, TEST_WRITE_KEY, WorkspaceFile } from '../support/workspace-file';
import { eventually } from '../support/kafka-test-kit';

/** How a service exports traces, as the standard OTEL_* variables configure it; one ingest process each. */
describe('trace export settings', () => {
  let otlp: OtlpReceiver;
  let workspace: WorkspaceFile;
  let ingest: ServiceProcess | undefined;

  beforeAll(async () => {
    otlp = await OtlpReceiver.start();
    workspace = new WorkspaceFile(simpleWorkspace());
  });

  afterAll(async () => {
    await ingest?.stop();
    await otlp?.stop();
    workspace?.remove();
  });

  const env = (over: NodeJS.ProcessEnv) => ({
    ...testServiceEnv(freshNamespace('otlp'), workspace.path),
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    ...over,
  });

  it('exports OTLP/JSON when OTEL_EXPORTER_OTLP_PROTOCOL is http/json', async () => {
    ingest = await ServiceProcess.start(
      'ingest',
      await freePort(),
      env({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
    );
    const response = await fetch(`${ingest.url}/v1/identify`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${TEST_WRITE_KEY}:`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ userId: 'json-user' }),
    });
    expect(response.status).toBe(200);
    const server = await eventually(
      () => otlp.spans.find((s) => s.kind === SPAN_KIND.server),
      20_000,
      'the ingest request span',
    );
    expect(server).toMatchObject({
      name: 'POST /v1/:endpoint',
      attributes: expect.objectContaining({
        'http.route': '/v1/:endpoint',
        'url.path': '/v1/identify',
        'http.response.status_code': 200,
      }),
    });
    expect(otlp.contentTypes).toEqual(new Set(['application/json']));
  });

  it.each([
    [
      { OTEL_TRACES_SAMPLER: 'parentbased_sometimes' },
      /start-up failed: invalid tracing settings: OTEL_TRACES_SAMPLER must be one of/,
    ],
    [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      /start-up failed: invalid tracing settings: OTEL_EXPORTER_OTLP_PROTOCOL must be one of: http\/protobuf, http\/json/,
    ],
  ])('refuses to start with %p, naming the variable', async (over, message) => {
    await expect(ServiceProcess.start('ingest', await freePort(), env(over))).rejects.toThrow(message);
  });
});
