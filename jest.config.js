// Two projects so a developer can run the fast ones alone (`npx jest --selectProjects=unit`).
// Where tests live:
// - a unit test is `x.spec.ts` beside `x.ts`;
// - a broker-backed test of one app or lib is `*.integration.spec.ts` beside the code it proves;
// - whole-system suites (services as processes) are under test/e2e/, SDK conformance under
//   test/conformance/;
// - harnesses and helpers of one app or lib are in its test-support/ folder (beside src/, never
//   built), those several share in test/support/.
// Integration and e2e suites share one real Kafka broker, started by test/support/global-setup.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const moduleNameMapper = {
  '^@switchyard/telemetry/tracing$': '<rootDir>/libs/telemetry/src/tracing',
  '^@switchyard/contracts/class-validator$': '<rootDir>/libs/contracts/src/class-validator',
  '^@switchyard/(contracts|kafka|config|telemetry|webhooks|analytics|service|workspace)$':
    '<rootDir>/libs/$1/src',
};
const common = {
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  testEnvironment: 'node',
  rootDir: __dirname,
};

module.exports = {
  // Integration suites await real Kafka and real receivers; unit tests finish far inside this.
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,test,scripts}/**/*.spec.ts'],
      testPathIgnorePatterns: ['\\.integration\\.spec\\.ts$', '/test/(e2e|conformance)/', '/node_modules/'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: [
        '<rootDir>/{apps,libs}/**/*.integration.spec.ts',
        '<rootDir>/test/{e2e,conformance}/**/*.spec.ts',
      ],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      testEnvironment: '<rootDir>/test/support/failure-aware-environment.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/stop-leftovers.ts'],
    },
  ],
};
