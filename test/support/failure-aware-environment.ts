import type { Circus } from '@jest/types';
import NodeEnvironment from 'jest-environment-node';

/** The global an afterEach hook reads to learn whether the test it follows failed. */
export const TEST_FAILED = '__switchyardTestFailed';

/**
 * Jest's Node environment, telling the file whether its current test failed: jest gives hooks no
 * test status, and the services' own output is what explains a failure seen under load
 * (test/support/stop-leftovers.ts prints it).
 */
export default class FailureAwareEnvironment extends NodeEnvironment {
  handleTestEvent(event: Circus.Event): void {
    if (event.name === 'test_start') this.global[TEST_FAILED] = false;
    if (event.name === 'test_fn_failure') this.global[TEST_FAILED] = true;
  }
}
