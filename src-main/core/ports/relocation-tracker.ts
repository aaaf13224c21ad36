import type { MobilePortView, RelocationProgress } from '../../ipc/contract';

export class RelocationTracker {
  track(_profileId: string, port: MobilePortView): Promise<RelocationProgress> {
    return Promise.resolve({
      portId: port.id,
      state: 'provisioning',
      startedAt: new Date().toISOString(),
      nextCheckAt: null,
      checks: 0,
      message: null,
    });
  }

  list(_profileId: string): Promise<RelocationProgress[]> {
    return Promise.resolve([]);
  }
}
