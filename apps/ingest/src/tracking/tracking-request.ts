import { CallProblem, CallType, JsonObject, validateCall } from '@switchyard/contracts';
import { mayHoldPrototypeKeys } from '../json-body/json-body';
import { forEachPrototypeKey, PROTOTYPE_KEY_REASON } from '../json-body/prototype-keys';

export interface MessageError {
  /**
   * Position in the batch (0 for a single call); absent for a batch-level field (`context`,
   * `integrations`, …), which `field` then names from the top of the body.
   */
  index?: number;
  field: string;
  reason: string;
}

export interface TrackingLimits {
  maxMessageBytes: number;
  maxBatchMessages: number;
}

export type ParsedRequest =
  | {
      ok: true;
      messages: JsonObject[];
      batch: { context?: JsonObject; integrations?: JsonObject; sentAt?: string };
    }
  | { ok: false; status: 400 | 413; error: string; message: string; errors?: MessageError[] };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the messages out of a Tracking API body and checks every one of them. A request is
 * accepted whole or not at all: one bad message fails the request with a reason per bad
 * message, so nothing is written that the caller was told failed (and vice versa).
 *
 * `endpoint` is the call type of `/v1/<type>`, or `batch` for `/v1/batch` and `/v1/import`.
 */
export function parseTrackingRequest(
  endpoint: CallType | 'batch',
  body: unknown,
  limits: TrackingLimits,
): ParsedRequest {
  if (!isObject(body)) {
    return {
      ok: false,
      status: 400,
      error: 'invalid_body',
      message: 'the request body must be a JSON object',
    };
  }
  let messages: unknown[];
  if (endpoint === 'batch') {
    // analytics-go v2's Close() posts `"batch": null`; an empty batch writes nothing and is no error.
    const batch = body.batch === null ? [] : body.batch;
    if (!Array.isArray(batch)) {
      return {
        ok: false,
        status: 400,
        error: 'invalid_body',
        message: '"batch" must be an array of messages',
      };
    }
    if (batch.length > limits.maxBatchMessages) {
      return {
        ok: false,
        status: 413,
        error: 'too_many_messages',
        message: `"batch" holds ${batch.length} messages; the limit is ${limits.maxBatchMessages}`,
      };
    }
    messages = batch;
  } else {
    // Like Segment, the endpoint decides the type of a single call.
    messages = [{ ...body, type: endpoint }];
  }

  const problems: Array<CallProblem & { index?: number }> = prototypeKeyProblems(endpoint, body);
  // A message holding such a key is answered with those keys alone; its other rules wait for the rename.
  const withPrototypeKeys = new Set(problems.map((problem) => problem.index));
  messages.forEach((message, index) => {
    if (withPrototypeKeys.has(index)) return;
    const bytes = Buffer.byteLength(JSON.stringify(message) ?? '');
    if (bytes > limits.maxMessageBytes) {
      problems.push({
        index,
        field: '',
        reason: `message is ${bytes} bytes; the limit is ${limits.maxMessageBytes}`,
        kind: 'too_large',
      });
      return;
    }
    for (const problem of validateCall(message)) problems.push({ index, ...problem });
  });
  if (problems.length > 0) {
    // 413 only when size is all that is wrong: a message that also breaks a rule needs fixing, not splitting.
    const oversize = problems.every((e) => e.kind === 'too_large');
    // Batch-level fields first, then the messages in batch order.
    problems.sort((a, b) => (a.index ?? -1) - (b.index ?? -1));
    const errors: MessageError[] = problems.map(({ index, field, reason }) =>
      index === undefined ? { field, reason } : { index, field, reason },
    );
    return {
      ok: false,
      status: oversize ? 413 : 400,
      error: oversize ? 'message_too_large' : 'invalid_messages',
      message: `${invalidCounts(errors, messages.length)} invalid; nothing was accepted`,
      errors,
    };
  }
  return {
    ok: true,
    messages: messages as JsonObject[],
    batch: {
      context: isObject(body.context) && endpoint === 'batch' ? body.context : undefined,
      integrations: isObject(body.integrations) && endpoint === 'batch' ? body.integrations : undefined,
      sentAt: endpoint === 'batch' && typeof body.sentAt === 'string' ? body.sentAt : undefined,
    },
  };
}

/**
 * One rule for every object the request carries: a key naming a prototype is refused wherever it
 * is — in a message, at any depth, or in a batch-level field that would be merged into every
 * message. A batch message's key is reported by its index and its path in the message, any other
 * by its path in the body. The walk runs only for bodies whose text had such a key.
 */
function prototypeKeyProblems(
  endpoint: CallType | 'batch',
  body: JsonObject,
): Array<CallProblem & { index?: number }> {
  const problems: Array<CallProblem & { index?: number }> = [];
  if (!mayHoldPrototypeKeys(body)) return problems;
  forEachPrototypeKey(body, (path) => {
    const reason = PROTOTYPE_KEY_REASON;
    if (endpoint !== 'batch') problems.push({ index: 0, field: path.join('.'), reason, kind: 'invalid' });
    else if (path[0] === 'batch' && typeof path[1] === 'number')
      problems.push({ index: path[1], field: path.slice(2).join('.'), reason, kind: 'invalid' });
    else problems.push({ field: path.join('.'), reason, kind: 'invalid' });
  });
  return problems;
}

/** `2 of 5 message(s)`, `1 batch-level field(s)`, or both, for the errors of a refused request. */
function invalidCounts(errors: MessageError[], messageCount: number): string {
  const badMessages = new Set(errors.flatMap((e) => (e.index === undefined ? [] : [e.index]))).size;
  const badFields = errors.filter((e) => e.index === undefined).length;
  const counts: string[] = [];
  if (badFields > 0) counts.push(`${badFields} batch-level field(s)`);
  if (badMessages > 0) counts.push(`${badMessages} of ${messageCount} message(s)`);
  return counts.join(' and ');
}
