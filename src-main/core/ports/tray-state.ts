import type { DomainHandlers } from '../../ipc/contract';
import type { DomainService } from '../domain-service';
import { AppError } from '../errors';

const notYet = (): Promise<never> =>
  Promise.reject(new AppError('internal_error', 'The tray is not implemented yet'));

/** The tray's state (contract first; the model follows). */
export class TrayStateService implements DomainService<'tray'> {
  handlers(): DomainHandlers<'tray'> {
    return { 'tray:get': notYet, 'tray:setPinned': notYet };
  }
}
