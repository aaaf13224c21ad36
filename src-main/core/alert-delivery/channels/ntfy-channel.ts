import { type AlertChannel, postForStatus } from '../alert-channel';

export const NTFY_SERVER_DEFAULT = 'https://ntfy.sh';

/** Priority by event: a port down or a failing schedule is urgent (4), the rest default (3). */
function priorityOf(type: string): string {
  return type === 'port.down' || type.endsWith('.expired') || type === 'schedule.failing' ? '4' : '3';
}

/** ntfy: POST the text to `<server>/<topic>`, with a title, a priority and an optional access token. */
export function ntfyChannel(serverUrl: string, topic: string, token: string | null): AlertChannel {
  const endpoint = `${serverUrl.replace(/\/+$/, '')}/${topic}`;
  return {
    kind: 'ntfy',
    minIntervalMs: 0,
    send: async (message, context) => {
      await postForStatus(
        endpoint,
        {
          what: 'the ntfy server',
          headers: {
            'content-type': 'text/plain; charset=utf-8',
            // Header values must be Latin-1: ntfy reads RFC 2047 encoded words.
            title: `=?UTF-8?B?${Buffer.from(message.title).toString('base64')}?=`,
            priority: priorityOf(message.envelope.type),
            tags: message.envelope.type.replace(/[^a-z0-9_]/g, '_'),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: message.text,
        },
        context,
      );
    },
  };
}
