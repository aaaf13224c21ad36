import type { DomainHandlers } from '../../ipc/contract';
import type { DomainService } from '../domain-service';
import { AppError } from '../errors';

const notYet = (): Promise<never> =>
  Promise.reject(new AppError('internal_error', 'Scheduled rotation is not implemented yet'));

/** Scheduled rotation (contract first; the job follows). */
export class RotationScheduler implements DomainService<'schedules'> {
  handlers(): DomainHandlers<'schedules'> {
    return {
      'schedules:list': notYet,
      'schedules:set': notYet,
      'schedules:remove': notYet,
      'schedules:pause': notYet,
      'schedules:runs': notYet,
    };
  }
}
