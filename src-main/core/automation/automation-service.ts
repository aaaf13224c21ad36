import type { DomainHandlers, RestApiStatus } from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import { AppError } from '../errors';
import type { SettingsStore } from '../settings/settings-store';
import type { AuditLog } from './audit-log';
import type { TokenStore } from './token-store';

/** The data folder's token store and audit log; absent for a core without a data folder (tests). */
export interface AutomationStores {
  tokens: TokenStore;
  audit: AuditLog;
}

/** What the process serving the local REST API made of the setting (told by that surface). */
export interface RestListenerState {
  url: string | null;
  error: string | null;
}

export interface AutomationServiceOptions {
  stores: AutomationStores | null;
  settings: Pick<SettingsStore, 'get' | 'update' | 'subscribe'>;
  /** Whether this process owns the background jobs (only the owner serves the REST API). */
  ownsJobs: () => boolean;
}

/**
 * `automation:*`: tokens (created, listed, revoked), the local REST API's switch, and the audit log.
 * The REST server itself is a surface (`src-main/rest/`): the owner's composition starts it from
 * the setting and tells this service how that went (`reportRest`).
 */
export class AutomationService implements DomainService<'automation'> {
  private listener: RestListenerState = { url: null, error: null };
  private readonly restListeners = new Set<() => Promise<void>>();

  constructor(private readonly options: AutomationServiceOptions) {}

  /**
   * Told when the REST setting may have changed (saved here or by another process); `setRest`
   * answers once every listener is done, so its status says whether the server now listens.
   */
  onRestChange(listener: () => Promise<void>): () => void {
    this.restListeners.add(listener);
    const unsubscribe = this.options.settings.subscribe(() => void listener());
    return () => {
      this.restListeners.delete(listener);
      unsubscribe();
    };
  }

  handlers(): DomainHandlers<'automation'> {
    return {
      'automation:tokens': () => this.stores().tokens.list(),
      'automation:createToken': (input) => this.stores().tokens.create(input.name, input.scopes),
      'automation:revokeToken': async (input) => ({
        revoked: await this.stores().tokens.revoke(input.tokenId),
      }),
      'automation:audit': (input) => this.stores().audit.list(input?.limit),
      'automation:restStatus': () => Promise.resolve(this.restStatus()),
      'automation:setRest': async (input) => {
        await this.options.settings.update((draft) => {
          if (input.enabled !== undefined) draft.automation.rest.enabled = input.enabled;
          if (input.port !== undefined) draft.automation.rest.port = input.port;
        });
        await Promise.all([...this.restListeners].map((listener) => listener()));
        return this.restStatus();
      },
    };
  }

  /** The token store and audit log, for the REST and MCP surfaces of this process. */
  stores(): AutomationStores {
    if (!this.options.stores) {
      throw new AppError('not_implemented', 'Automation needs the app’s data folder.');
    }
    return this.options.stores;
  }

  reportRest(state: RestListenerState): void {
    this.listener = { ...state };
  }

  restStatus(): RestApiStatus {
    const { enabled, port } = this.options.settings.get().automation.rest;
    const notOwner =
      enabled && !this.options.ownsJobs()
        ? 'Served by the process that runs the background jobs (the desktop app or web mode).'
        : null;
    return {
      enabled,
      port,
      url: enabled ? this.listener.url : null,
      error: enabled ? (this.listener.error ?? (this.listener.url ? null : notOwner)) : null,
    };
  }
}
