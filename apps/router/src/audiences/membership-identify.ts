import { AudienceSynced, Call, Computation } from '@switchyard/contracts';
import { derivedMessageId } from '../routing/derived-message-id';
import { MembershipChange } from './audience-membership';
import { snakeCase } from './trait-key';

/** The trait key of a computation: its `traitKey` when given, else its name's snake_case form, else its id's. */
export function computationKey(computation: Computation): string {
  return computation.traitKey ?? (snakeCase(computation.name) || snakeCase(computation.id));
}

/** What a user who leaves is told: audiences say false; a computed trait is cleared (null). */
export function exitValue(computation: Computation): false | null {
  return computation.class === 'audience' ? false : null;
}

/**
 * The identify call that tells destinations about one membership change: the trait keyed by the
 * computation's snake_case name, and `context.personas` saying where it came from. Its
 * messageId is derived from the sync and the change, so a replayed sync yields the same id.
 */
export function membershipIdentify(
  sync: Pick<AudienceSynced, 'syncId' | 'computation' | 'receivedAt'>,
  change: MembershipChange,
): Call {
  const { computation } = sync;
  const key = computationKey(computation);
  return {
    type: 'identify',
    messageId: derivedMessageId(
      'personas',
      computation.id,
      sync.syncId,
      change.userId,
      JSON.stringify(change.value),
    ),
    userId: change.userId,
    traits: { [key]: change.value },
    context: {
      personas: {
        computation_class: computation.class,
        computation_id: computation.id,
        computation_key: key,
        space_id: computation.spaceId,
      },
    },
    integrations: {},
    timestamp: sync.receivedAt,
    receivedAt: sync.receivedAt,
  };
}
