import { type AlertChannel, postForStatus } from '../alert-channel';

/** A Slack incoming webhook (`{ text }`); the URL is the secret and lives in the keychain. */
export function slackChannel(webhookUrl: string): AlertChannel {
  return {
    kind: 'slack',
    // Slack: about one message per second per incoming webhook.
    minIntervalMs: 1000,
    send: async (message, context) => {
      await postForStatus(
        webhookUrl,
        {
          what: 'Slack',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: `*${message.title}*\n${message.text}` }),
        },
        context,
      );
    },
  };
}
