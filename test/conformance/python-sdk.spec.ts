import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConformanceBench, expectStandardCalls, TEST_WRITE_KEY } from './conformance-kit';
import { onceForInputs, runProgram } from './sdk-programs';

const programDir = join(__dirname, 'python');
const requirements = join(programDir, 'requirements.txt');
/** Outside the work tree, so neither git nor jest's file crawler sees the virtualenv. */
const venv = join(
  process.env.CONFORMANCE_CACHE_DIR ?? join(homedir(), '.cache', 'switchyard-conformance'),
  'python-venv',
);
const python = join(venv, 'bin', 'python');

/** A virtualenv with the pinned segment-analytics-python, made or refreshed when requirements.txt changes. */
async function preparePython(): Promise<void> {
  mkdirSync(venv, { recursive: true });
  await onceForInputs(join(venv, 'requirements.sha256'), [requirements], async () => {
    await runProgram('python3', ['-m', 'venv', '--clear', venv], {
      toolchain: 'Python 3 with venv (python3, python3-venv)',
    });
    await runProgram(
      python,
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', requirements],
      { toolchain: 'pip in the venv' },
    );
  });
}

describe('real Segment Python SDK against ingest', () => {
  let bench: ConformanceBench;
  beforeAll(async () => {
    await preparePython();
    bench = await ConformanceBench.start('conf-python');
  }, 300_000);
  afterAll(() => bench?.stop());

  it('segment-analytics-python lands identify, track, page, screen, group and alias (gzipped batch)', async () => {
    await runProgram(
      python,
      [join(programDir, 'send_calls.py'), bench.ingest.url, TEST_WRITE_KEY, 'seg-py'],
      { toolchain: 'Python 3 (python3)', timeoutMs: 120_000 },
    );

    const calls = await bench.callsFor('seg-py-user', 6);
    expectStandardCalls(calls, 'seg-py-user', ['identify', 'track', 'page', 'screen', 'group', 'alias']);
    expect(calls.track.integrations).toEqual({ All: false, Webhooks: true });
    expect(calls.alias.timestamp).toBe('2015-01-02T10:04:05.000Z');
    expect(calls.identify.context).toMatchObject({ library: { name: 'analytics-python' } });
  }, 180_000);
});
