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
  ValidationOptions,
} from 'class-validator';
import { CALL_TYPES, CallType } from './call';
import { normaliseTimestamp } from './timestamp';

// The Tracking API's rules for each call type, as class-validator decorators: the one statement of
// them, read both by class-validator (for errors) and by compileRules (for the accept fast path).

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

export const CALL_CLASS: Record<CallType, new () => BaseCall> = {
  identify: IdentifyCall,
  track: TrackCall,
  page: PageCall,
  screen: ScreenCall,
  group: GroupCall,
  alias: AliasCall,
};
