import { CALL_TYPES, CallType } from './call';
import { CALL_ASSERTIONS, CallProblem, Message } from './call-assertions';

/**
 * Checks one raw message against the Tracking API's rules for its type. Returns the problems,
 * each naming its field and kind; an empty list means the message is valid. Reads the message as
 * it is: no copy, no class instance, so a message's own `constructor` or `__proto__` key is just a
 * field no rule looks at.
 */
export function validateCall(raw: unknown): CallProblem[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return [{ field: '', reason: 'each message must be a JSON object', kind: 'invalid' }];
  }
  const type = (raw as Message).type;
  if (typeof type !== 'string' || !Object.hasOwn(CALL_ASSERTIONS, type)) {
    return [
      {
        field: 'type',
        reason: `type must be one of: ${CALL_TYPES.join(', ')}`,
        kind: absentType(type) ? 'missing' : 'invalid',
      },
    ];
  }
  return checkCall(type as CallType, raw as Message);
}

/** The rules of one call type, for a message whose type is already known (the client's calls). */
export function checkCall(type: CallType, message: Message): CallProblem[] {
  const problems: CallProblem[] = [];
  for (const assertion of CALL_ASSERTIONS[type]) {
    const problem = assertion(message);
    if (problem) problems.push(problem);
  }
  return problems;
}

const absentType = (type: unknown) => type === undefined || type === null;
