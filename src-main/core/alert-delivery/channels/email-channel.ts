import { createTransport } from 'nodemailer';
import { type AlertChannel, DeliveryFailure } from '../alert-channel';

export interface EmailSettings {
  host: string;
  port: number;
  /** TLS from the start (465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  username: string | null;
  from: string;
  to: string;
}

const SMTP_TIMEOUT_MS = 15_000;

/**
 * Email over SMTP with nodemailer (the maintained choice: STARTTLS, AUTH, proxies, pooling we do
 * not need). One message per event; the event id is in `Message-ID` and `X-Alert-Event-Id`, so a
 * mail filter can de-duplicate too.
 */
export function emailChannel(settings: EmailSettings, password: string | null): AlertChannel {
  return {
    kind: 'email',
    minIntervalMs: 0,
    send: async (message, context) => {
      const transport = createTransport({
        host: settings.host,
        port: settings.port,
        secure: settings.secure,
        ...(settings.username ? { auth: { user: settings.username, pass: password ?? '' } } : {}),
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
        ...(context.proxyUrl ? { proxy: context.proxyUrl } : {}),
      });
      try {
        await transport.sendMail({
          from: settings.from,
          to: settings.to,
          subject: message.title,
          text: message.text,
          messageId: `<${message.envelope.id}@proxy-manager.alerts>`,
          headers: { 'X-Alert-Event-Id': message.envelope.id, 'X-Alert-Event-Type': message.envelope.type },
        });
      } catch (error) {
        const responseCode = (error as { responseCode?: unknown }).responseCode;
        const code = (error as { code?: unknown }).code;
        if (typeof responseCode === 'number')
          // SMTP's 5xx replies are refusals for good (a wrong password, an unknown recipient); 4xx are transient.
          throw new DeliveryFailure(
            `The SMTP server refused the message (${responseCode}).`,
            responseCode >= 500,
          );
        throw new DeliveryFailure(
          `Could not reach the SMTP server (${typeof code === 'string' ? code : 'error'}).`,
        );
      } finally {
        transport.close();
      }
    },
  };
}
