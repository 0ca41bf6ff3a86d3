import type { AttemptIndex } from './attempt-index';
import type { CallSample } from './call-sample';
import type { DeadLetterIndex } from './dead-letter-index';

/** The bounded indexes the console builds from the attempts, dead-letter and events topics. */
export interface ConsoleIndexes {
  attempts: AttemptIndex;
  deadLetters: DeadLetterIndex;
  calls: CallSample;
}
