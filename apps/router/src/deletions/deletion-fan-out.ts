import { DeletionRequested } from '@switchyard/contracts';
import { Destination } from '@switchyard/config';
import { deleteEnvelope } from '@switchyard/webhooks';
import { Addressed, enabledWebhooks } from '../routing/delivery-records';
import { derivedMessageId } from '../routing/derived-message-id';

/** One delete notification bound for some destinations. */
export interface DeleteNotification {
  destinations: Destination[];
  message: Addressed;
}

/** The slice of the workspace configuration the fan-out reads. */
export interface SourceDirectory {
  readonly config: { sources: ReadonlyArray<{ id: string }> };
  destinationsOf(sourceId: string): readonly Destination[];
}

/**
 * A deletion request → one delete notification per user and affected source (the request's
 * sources, or all of them) that has an enabled Webhooks destination. Integrations flags do not
 * apply: a deletion is not a call. Pure.
 */
export function deleteNotifications(
  request: DeletionRequested,
  workspace: SourceDirectory,
): DeleteNotification[] {
  const known = workspace.config.sources.map((s) => s.id);
  const affected = request.sourceIds ? known.filter((id) => request.sourceIds!.includes(id)) : known;
  return affected.flatMap((sourceId) => {
    const destinations = enabledWebhooks(workspace.destinationsOf(sourceId));
    if (destinations.length === 0) return [];
    return [...new Set(request.userIds)].map((userId) => {
      const messageId = derivedMessageId('delete', request.requestId, sourceId, userId);
      const body = deleteEnvelope({ userId, timestamp: request.requestedAt, messageId });
      return {
        destinations,
        message: { sourceId, userKey: userId, messageId, body, receivedAt: request.requestedAt },
      };
    });
  });
}
