import 'reflect-metadata';
import {
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  registerDecorator,
  ValidateIf,
  validateSync,
  ValidationError,
  ValidationOptions,
} from 'class-validator';
import { CALL_TYPES, CallType } from './call';
import { normaliseTimestamp } from './timestamp';
import { cacheValidationMetadata } from './validation-metadata-cache';

cacheValidationMetadata();

/** Longest id we accept; longer ones are almost always a bug in the caller (a JSON blob as id). */
const MAX_ID_LENGTH = 512;

function IsIsoTimestamp(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isIsoTimestamp',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be an ISO 8601 date-time`, ...options },
      validator: { validate: (value: unknown) => normaliseTimestamp(value) !== undefined },
    });
}

// Alias always needs userId (the new id); the other calls need userId unless anonymousId is there.
const needsIdentity = (o: BaseCall) => o.type === 'alias' || o.anonymousId === undefined || o.anonymousId === null;
const identityMessage = { message: 'userId or anonymousId is required (a non-empty string)' };

class BaseCall {
  @IsIn(CALL_TYPES as unknown as string[], { message: `type must be one of: ${CALL_TYPES.join(', ')}` })
  type!: CallType;

  @ValidateIf(needsIdentity)
  @IsDefined(identityMessage)
  @IsString(identityMessage)
  @IsNotEmpty(identityMessage)
  @MaxLength(MAX_ID_LENGTH)
  userId?: string;

  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(MAX_ID_LENGTH)
  anonymousId?: string;

  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(MAX_ID_LENGTH)
  messageId?: string;

  @IsOptional() @IsObject()
  context?: object;

  @IsOptional() @IsObject()
  integrations?: object;

  @IsOptional() @IsIsoTimestamp()
  timestamp?: string;

  @IsOptional() @IsIsoTimestamp()
  sentAt?: string;

  @IsOptional() @IsIsoTimestamp()
  originalTimestamp?: string;
}

class IdentifyCall extends BaseCall {
  @IsOptional() @IsObject() traits?: object;
}

class TrackCall extends BaseCall {
  @IsDefined({ message: 'event is required for track' }) @IsString() @IsNotEmpty({ message: 'event must not be empty' })
  event!: string;

  @IsOptional() @IsObject() properties?: object;
}

class PageCall extends BaseCall {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsString() category?: string;
  @IsOptional() @IsObject() properties?: object;
}

class ScreenCall extends PageCall {}

class GroupCall extends BaseCall {
  @IsDefined({ message: 'groupId is required for group' }) @IsString() @IsNotEmpty() @MaxLength(MAX_ID_LENGTH)
  groupId!: string;

  @IsOptional() @IsObject() traits?: object;
}

class AliasCall extends BaseCall {
  @IsDefined({ message: 'userId is required for alias' }) @IsString() @IsNotEmpty() @MaxLength(MAX_ID_LENGTH)
  declare userId: string;

  @IsDefined({ message: 'previousId is required for alias' }) @IsString() @IsNotEmpty() @MaxLength(MAX_ID_LENGTH)
  previousId!: string;
}

const CALL_CLASS: Record<CallType, new () => BaseCall> = {
  identify: IdentifyCall,
  track: TrackCall,
  page: PageCall,
  screen: ScreenCall,
  group: GroupCall,
  alias: AliasCall,
};

export interface FieldError {
  field: string;
  reason: string;
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    // The first broken rule of a field is the one to fix; the rest are usually its echoes.
    const [first] = Object.values(e.constraints ?? {});
    const own = first ? [{ field, reason: first }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Checks one raw message against the Tracking API's rules for its type. Returns the problems,
 * each naming its field; an empty list means the message is valid.
 */
export function validateCall(raw: unknown): FieldError[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return [{ field: '', reason: 'each message must be a JSON object' }];
  }
  const type = (raw as { type?: unknown }).type;
  const cls = CALL_CLASS[type as CallType];
  if (!cls || !Object.hasOwn(CALL_CLASS, type as string)) {
    return [{ field: 'type', reason: `type must be one of: ${CALL_TYPES.join(', ')}` }];
  }
  // The rules need only the class's prototype (its metadata); class-transformer's deep copy cost
  // a tenth of ingest's CPU for nothing, since no rule here converts or nests.
  const instance = Object.assign(Object.create(cls.prototype) as BaseCall, raw);
  return flatten(validateSync(instance, { forbidUnknownValues: false, validationError: { target: false } }));
}

/** The same flattening, for the other contracts' validators (deletions, audience syncs). */
export { flatten as flattenValidationErrors };
