import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run lint` refuses each fixture under test/lint/fixtures: they are linted here with the
 * repository's own eslint and Prettier configuration (the normal run ignores them on purpose).
 * Beside each refused fixture is one that passes, so a rule that refuses everything fails too.
 */
const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = 'test/lint/fixtures';

interface EslintResult {
  filePath: string;
  messages: { ruleId: string | null; message: string }[];
}

/** Problems per fixture (path from the fixtures folder), as `rule: message`. */
function eslintProblems(): Map<string, string[]> {
  const output = run('node_modules/eslint/bin/eslint.js', ['--no-ignore', '--format', 'json', FIXTURES]);
  const results = JSON.parse(output) as EslintResult[];
  return new Map(
    results.map((r) => [
      path.relative(path.join(ROOT, FIXTURES), r.filePath),
      r.messages.map((m) => `${m.ruleId}: ${m.message}`),
    ]),
  );
}

/** The fixtures Prettier would reformat. */
function unformatted(): string[] {
  // The empty ignore file lets Prettier see the fixtures that .prettierignore hides from `npm run lint`.
  const output = run('node_modules/prettier/bin/prettier.cjs', [
    '--list-different',
    '--ignore-path',
    '/dev/null',
    `${FIXTURES}/formatted.ts`,
    `${FIXTURES}/unformatted.ts`,
  ]);
  return output.split('\n').filter(Boolean);
}

/** Runs a tool and returns its standard output, whether or not it exits 0 (a refusal exits 1). */
function run(script: string, args: string[]): string {
  try {
    return execFileSync(process.execPath, [script, ...args], { cwd: ROOT, encoding: 'utf8' });
  } catch (error) {
    const { stdout, status } = error as { stdout?: string; status?: number };
    if (status === 1 && stdout !== undefined) return stdout;
    throw error;
  }
}

describe('lint walls', () => {
  let problems: Map<string, string[]>;
  beforeAll(() => {
    problems = eslintProblems();
  });

  it.each([
    ['apps/ingest/src/imports-other-app.ts', 'apps/ingest imports apps/router'],
    ['apps/console/src/imports-other-app-by-alias.ts', 'apps/console imports apps/delivery'],
    ['apps/console/src/imports-other-app-by-alias.ts', 'apps/console imports apps/router'],
    ['apps/console/src/imports-other-entry.ts', 'apps/console imports apps/router'],
    ['apps/switchyard/src/imports-app-internals.ts', 'apps/switchyard imports apps/router'],
    ['libs/telemetry/src/imports-app.ts', 'libs/telemetry imports apps/delivery'],
    ['apps/router/src/imports-kafkajs.ts', 'Only libs/kafka imports the Kafka client'],
    ['libs/config/src/imports-swagger.ts', 'Only apps/console loads @nestjs/swagger'],
    ['libs/config/src/imports-class-validator.ts', "Import class-validator's decorators from"],
  ])('refuses %s: %s', (fixture, reason) => {
    expect(problems.get(fixture)).toEqual(expect.arrayContaining([expect.stringContaining(reason)]));
  });

  it.each([
    'apps/ingest/src/imports-own-app.ts',
    'apps/switchyard/src/imports-entry-modules.ts',
    'libs/kafka/src/imports-kafkajs.ts',
    'libs/config/src/imports-swagger-types.ts',
    'apps/console/src/imports-swagger.ts',
    'libs/contracts/src/class-validator.ts',
  ])('accepts %s', (fixture) => {
    expect(problems.get(fixture)).toEqual([]);
  });

  it('refuses an unformatted file and accepts a formatted one', () => {
    expect(unformatted()).toEqual([`${FIXTURES}/unformatted.ts`]);
  });
});
