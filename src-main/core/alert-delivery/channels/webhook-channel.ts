import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { type AlertChannel, postForStatus } from '../alert-channel';

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * A signed webhook (Standard Webhooks): `webhook-id` (the event id, for the receiver to
 * de-duplicate), `webhook-timestamp` (this attempt, in seconds) and `webhook-signature`
 * (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the secret), signed by the
 * `standardwebhooks` package so that receivers can verify with any of its libraries.
 */
export function webhookChannel(url: string, signingSecret: string): AlertChannel {
  const signer = new Webhook(signingSecret);
  return {
    kind: 'webhook',
    minIntervalMs: 0,
    send: async (message, context) => {
      const timestamp = new Date(context.now);
      await postForStatus(
        url,
        {
          what: 'the webhook',
          body: message.body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'ProxyManager-Alerts/1',
            'webhook-id': message.envelope.id,
            'webhook-timestamp': String(Math.floor(context.now / 1000)),
            'webhook-signature': signer.sign(message.envelope.id, timestamp, message.body),
          },
        },
        context,
      );
    },
  };
}
