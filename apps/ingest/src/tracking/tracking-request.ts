import { CallProblem, CallType, JsonObject, validateCall } from '@switchyard/contracts';
import { mayHoldPrototypeKeys } from '../json-body/json-body';
import { PROTOTYPE_KEY_REASON, prototypeKeyPaths } from '../json-body/prototype-keys';

export interface MessageError {
  /** Position in the batch (0 for a single call). */
  index: number;
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

  const problems: Array<CallProblem & { index: number }> = [];
  const checkKeys = mayHoldPrototypeKeys(body);
  messages.forEach((message, index) => {
    if (checkKeys) {
      const paths = prototypeKeyPaths(message);
      for (const field of paths)
        problems.push({ index, field, reason: PROTOTYPE_KEY_REASON, kind: 'invalid' });
      if (paths.length > 0) return;
    }
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
    const bad = new Set(problems.map((e) => e.index)).size;
    // 413 only when size is all that is wrong: a message that also breaks a rule needs fixing, not splitting.
    const oversize = problems.every((e) => e.kind === 'too_large');
    const errors: MessageError[] = problems.map(({ index, field, reason }) => ({ index, field, reason }));
    return {
      ok: false,
      status: oversize ? 413 : 400,
      error: oversize ? 'message_too_large' : 'invalid_messages',
      message: `${bad} of ${messages.length} message(s) invalid; nothing was accepted`,
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
