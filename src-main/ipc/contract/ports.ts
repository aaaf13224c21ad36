import type { MobilePort } from '../../api/api-types';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import { noInput } from './shared-inputs';

/**
 * `Omit` for API types: they are loose objects with a string index signature, under which plain `Omit`
 * would drop every named member.
 */
type OmitMembers<T, K extends string> = {
  [P in keyof T as string extends P ? never : P extends K ? never : P]: T[P];
};

/** A mobile port as the renderer sees it: the rotation link (it carries the key) is left in main. */
export type MobilePortView = OmitMembers<MobilePort, 'rotationLink'> & { hasRotationLink: boolean };

export interface PortsChanged {
  profileId: string;
  /** The ports whose state main learned of (after a write or a background read); others are unchanged. */
  changed: MobilePortView[];
}

export const portsCalls = {
  'ports:list': call<MobilePortView[]>()(noInput),
} as const satisfies DomainCalls<'ports'>;

export const portsEvents = {
  'ports:changed': event<PortsChanged>(),
} as const satisfies DomainEvents<'ports'>;
