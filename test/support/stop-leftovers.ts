import { stopLeftoverServices } from './service-process';

// Registered for every integration and e2e file (jest.config.js, setupFilesAfterEnv): a root-level
// afterAll, so it runs after the file's own clean-up and stops only what that clean-up could not reach.
afterAll(() => stopLeftoverServices());
