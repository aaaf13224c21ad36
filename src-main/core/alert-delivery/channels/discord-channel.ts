import { type AlertChannel, postForStatus } from '../alert-channel';

/** Discord's `content` is at most 2000 characters. */
const DISCORD_CONTENT_MAX = 2000;

/** A Discord webhook (`{ content }`); the URL is the secret and lives in the keychain. */
export function discordChannel(webhookUrl: string): AlertChannel {
  return {
    kind: 'discord',
    // Discord allows about 5 requests per 2 seconds per webhook.
    minIntervalMs: 500,
    send: async (message, context) => {
      await postForStatus(
        webhookUrl,
        {
          what: 'Discord',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            content: `**${message.title}**\n${message.text}`.slice(0, DISCORD_CONTENT_MAX),
            allowed_mentions: { parse: [] },
          }),
        },
        context,
      );
    },
  };
}
