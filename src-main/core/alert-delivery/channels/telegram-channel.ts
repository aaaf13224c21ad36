import { type AlertChannel, postForStatus } from '../alert-channel';

export const TELEGRAM_API_DEFAULT = 'https://api.telegram.org';
/** Telegram's own limit: about one message per second per chat. */
const TELEGRAM_MIN_INTERVAL_MS = 1000;
/** `sendMessage` takes at most 4096 characters. */
const TELEGRAM_TEXT_MAX = 4096;

/** A Telegram bot's `sendMessage` to one chat; the Bot API's base URL is the user's (a stand-in in tests). */
export function telegramChannel(apiBaseUrl: string, botToken: string, chatId: string): AlertChannel {
  const endpoint = `${apiBaseUrl.replace(/\/+$/, '')}/bot${botToken}/sendMessage`;
  return {
    kind: 'telegram',
    minIntervalMs: TELEGRAM_MIN_INTERVAL_MS,
    send: async (message, context) => {
      const text = `${message.title}\n${message.text}`.slice(0, TELEGRAM_TEXT_MAX);
      await postForStatus(
        endpoint,
        {
          what: 'Telegram',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ chat_id: chatId, text, disable_web_page_preview: true }),
        },
        context,
      );
    },
  };
}
