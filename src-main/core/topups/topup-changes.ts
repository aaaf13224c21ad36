import type { TopUp } from '../../api';
import type { EventSink } from '../events';
import type { TopUpLinks } from './topup-links';

/**
 * Announces top-ups whose state main learned of (after a write, or a background read) as
 * `topups:changed`, remembering their links first (`TopUpLinks`: the only ones main opens). The
 * top-ups service and the watcher publish through this one function.
 */
export function publishTopUpChanges(
  events: EventSink,
  links: TopUpLinks,
  profileId: string,
  changed: TopUp[],
): void {
  for (const topUp of changed) links.remember(topUp);
  if (changed.length > 0) events.emit('topups:changed', { profileId, changed });
}
