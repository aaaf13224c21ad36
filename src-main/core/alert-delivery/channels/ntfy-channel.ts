import { type AlertChannel, postForStatus } from '../alert-channel';

export const NTFY_SERVER_DEFAULT = 'https://ntfy.sh';

/** Priority by event: a port down, an expiry or a failing schedule is high (4), the rest default (3). */
function priorityOf(type: string): number {
  return type === 'port.down' || type.endsWith('.expired') || type === 'schedule.failing' ? 4 : 3;
}

/**
 * ntfy: published as JSON to the server's root (`{ topic, title, message, priority, tags }`), so a
 * title in any language needs no header encoding; an access token goes in `Authorization`.
 */
export function ntfyChannel(serverUrl: string, topic: string, token: string | null): AlertChannel {
  const endpoint = serverUrl.replace(/\/+$/, '');
  return {
    kind: 'ntfy',
    minIntervalMs: 0,
    send: async (message, context) => {
      await postForStatus(
        endpoint,
        {
          what: 'the ntfy server',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({
            topic,
            title: message.title,
            message: message.text,
            priority: priorityOf(message.envelope.type),
            tags: [message.envelope.type.replace(/[^a-z0-9_]/g, '_')],
          }),
        },
        context,
      );
    },
  };
}
