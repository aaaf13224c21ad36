import type { ConnectionStatus } from '../../../../src-shared/contract';

/** Short labels for the status bar; the sentence from main says the rest. */
const CONNECTION_LABELS: Record<ConnectionStatus, string> = {
  online: 'Online',
  offline: 'Offline',
  key_rejected: 'Key rejected',
  not_configured: 'Not configured',
  checking: 'Checking…',
  service_error: 'Service error',
};

const CONNECTION_TONES: Record<ConnectionStatus, 'ok' | 'warn' | 'bad' | 'neutral'> = {
  online: 'ok',
  offline: 'bad',
  key_rejected: 'bad',
  not_configured: 'neutral',
  checking: 'neutral',
  service_error: 'warn',
};

export function connectionLabel(status: string): string {
  return (CONNECTION_LABELS as Record<string, string>)[status] ?? status;
}

export function connectionTone(status: string): string {
  return (CONNECTION_TONES as Record<string, string>)[status] ?? 'neutral';
}
