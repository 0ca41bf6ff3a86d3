import { TEST_FAILED } from './failure-aware-environment';
import { liveServiceOutput, stopLeftoverServices } from './service-process';

// Registered for every integration and e2e file (jest.config.js, setupFilesAfterEnv).

// After a failed test, the output of the services it ran: under load a wait times out without
// saying which service stalled, and a CI log is all that is left of a run.
afterEach(() => {
  const failed = (globalThis as Record<string, unknown>)[TEST_FAILED] === true;
  const output = failed ? liveServiceOutput() : '';
  if (output)
    process.stderr.write(
      `\nServices' output after the failed test "${expect.getState().currentTestName}":\n${output}\n`,
    );
});

// A root-level afterAll, so it runs after the file's own clean-up and stops only what that clean-up could not reach.
afterAll(() => stopLeftoverServices());
