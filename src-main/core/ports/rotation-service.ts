import type { RotateManyOutcome, RotationReceipt, RotationTrigger } from '../../ipc/contract';
import { AppError } from '../errors';

export interface RotateOptions {
  /** Repeat (waiting out the cooldown) until the IP is not among the port's last `lastN` IPs. */
  untilNew?: { lastN: number; maxTries: number };
}

/**
 * What the scheduler, the tray and the shortcut call to rotate a port. Single-flight per
 * (profile, port): concurrent callers share one request and one receipt. Rejects with the API
 * client's error (`retryAfterMs` on a 429) or an `AppError`.
 */
export interface RotatePort {
  rotate(
    profileId: string,
    portId: string,
    trigger: RotationTrigger,
    options?: RotateOptions,
  ): Promise<RotationReceipt>;
}

export class RotationService implements RotatePort {
  rotate(
    _profileId: string,
    _portId: string,
    _trigger: RotationTrigger,
    _options: RotateOptions = {},
  ): Promise<RotationReceipt> {
    return Promise.reject(new AppError('internal_error', 'Rotation is not implemented yet'));
  }

  rotateMany(
    _profileId: string,
    _portIds: string[],
    _trigger: RotationTrigger,
  ): Promise<RotateManyOutcome[]> {
    return Promise.reject(new AppError('internal_error', 'Rotation is not implemented yet'));
  }

  receipts(_profileId: string, _portId: string): Promise<RotationReceipt[]> {
    return Promise.resolve([]);
  }
}
