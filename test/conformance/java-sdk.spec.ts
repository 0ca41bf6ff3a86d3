import { delimiter, join } from 'node:path';
import { ConformanceBench, expectStandardCalls, TEST_WRITE_KEY } from './conformance-kit';
import { onceForInputs, runProgram } from './sdk-programs';

const project = join(__dirname, 'java');
const target = join(project, 'target');
const classpath = [join(target, 'classes'), join(target, 'lib', '*')].join(delimiter);

/** Compiles Main.java and gathers the SDK's jars (Maven Central) into target/, once per change of pom or source. */
async function buildJavaProgram(): Promise<void> {
  const sources = [
    join(project, 'pom.xml'),
    join(project, 'src', 'main', 'java', 'com', 'switchyard', 'conformance', 'Main.java'),
  ];
  await onceForInputs(join(target, 'conformance-build.sha256'), sources, async () => {
    // clean: copy-dependencies never removes the jars of a version the pom no longer names.
    await runProgram('mvn', ['-B', '-q', 'clean', 'package'], {
      toolchain: 'Maven (mvn) with a JDK 11+',
      cwd: project,
    });
  });
}

describe('real Segment Java SDK against ingest', () => {
  let bench: ConformanceBench;
  beforeAll(async () => {
    await buildJavaProgram();
    bench = await ConformanceBench.start('conf-java');
  }, 300_000);
  afterAll(() => bench?.stop());

  it('com.segment.analytics.java:analytics posts to /v1/import/ and lands identify, track, page, screen, group and alias', async () => {
    await runProgram(
      'java',
      ['-cp', classpath, 'com.switchyard.conformance.Main', bench.ingest.url, TEST_WRITE_KEY, 'seg-java'],
      {
        toolchain: 'a Java runtime (java) 11+',
        timeoutMs: 120_000,
      },
    );

    const calls = await bench.callsFor('seg-java-user', 6);
    expectStandardCalls(calls, 'seg-java-user', ['identify', 'track', 'page', 'screen', 'group', 'alias']);
    expect(calls.track.integrations).toEqual({ All: false, Webhooks: true });
    expect(calls.alias.timestamp).toBe('2015-01-02T10:04:05.000Z');
    expect(calls.identify.context).toMatchObject({ library: { name: 'analytics-java' } });
  }, 180_000);
});
