import type { MobilePort } from '../../api';
import type { DomainHandlers, MobilePortView } from '../../ipc/contract';
import type { DomainService } from '../domain-service';
import type { EventSink } from '../events';
import type { ApiCaller } from '../session/api-caller';

/** The rotation link carries the API key: it stays in main unless the user asks for it. */
export function toPortView({ rotationLink, ...port }: MobilePort): MobilePortView {
  return { ...port, hasRotationLink: typeof rotationLink === 'string' };
}

/** Mobile ports. UI calls go to the active profile; `refresh` serves background jobs. */
export class PortsService implements DomainService<'ports'> {
  constructor(
    private readonly api: Pick<ApiCaller, 'active' | 'forProfile'>,
    private readonly events: EventSink,
  ) {}

  handlers(): DomainHandlers<'ports'> {
    return {
      // The caller gets the list as its answer; nothing else needs telling.
      'ports:list': async () => {
        const { value } = await this.api.active('authenticated', (client) => client.listMobilePorts());
        return value.map(toPortView);
      },
    };
  }

  /**
   * Reads one profile's ports for a background job and tells the UI (`ports:changed`): nobody asked,
   * so the event is how the answer reaches the screen.
   */
  async refresh(profileId: string): Promise<MobilePortView[]> {
    const ports = (
      await this.api.forProfile(profileId, 'authenticated', (client) => client.listMobilePorts())
    ).map(toPortView);
    this.publish(profileId, ports);
    return ports;
  }

  /** Announces ports whose state main learned of (after a write, or a background read). */
  publish(profileId: string, changed: MobilePortView[]): void {
    if (changed.length > 0) this.events.emit('ports:changed', { profileId, changed });
  }
}
