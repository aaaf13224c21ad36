import type { MobilePortView, RelocationProgress } from '../../../src-shared/contract';
import type { EventSink } from '../events';

/**
 * Announces ports whose state main learned of (after a write, a rotation, or a background read) as
 * `ports:changed`. The ports service, the rotation service and the relocation tracker all publish
 * through this one function, so none of them needs the others to tell the windows.
 */
export function publishPortChanges(
  events: EventSink,
  profileId: string,
  changed: MobilePortView[],
  relocations?: RelocationProgress[],
): void {
  if (changed.length > 0 || (relocations && relocations.length > 0)) {
    events.emit('ports:changed', {
      profileId,
      changed,
      ...(relocations && relocations.length > 0 ? { relocations } : {}),
    });
  }
}
