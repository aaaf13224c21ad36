import { ProxyAgent } from 'undici';
import type { AddAlertChannelInput, AlertChannelView } from '../../../src-shared/contract/alert-routing';
import type { SendContext } from './alert-channel';
import { type AlertChannel, DeliveryFailure } from './alert-channel';
import { discordChannel } from './channels/discord-channel';
import { emailChannel } from './channels/email-channel';
import { ntfyChannel, NTFY_SERVER_DEFAULT } from './channels/ntfy-channel';
import { slackChannel } from './channels/slack-channel';
import { TELEGRAM_API_DEFAULT, telegramChannel } from './channels/telegram-channel';
import { newSigningSecret, webhookChannel } from './channels/webhook-channel';
import type { ChannelConfig, StoredChannel } from './delivery-store';

/** Where a channel's one secret lives in the keychain. */
export const channelSecretAccount = (channelId: string): string => `alert-channel:${channelId}`;

/** A local proxy to send through: its address and, when it asks for them, its local credentials. */
export interface LocalProxyRoute {
  url: string;
  username: string | null;
  password: string | null;
}

/**
 * Splits what the user entered into the settings kept in the data folder and the one secret kept
 * in the keychain (a webhook's is made here: the signing secret).
 */
export function splitChannelInput(input: AddAlertChannelInput): {
  config: ChannelConfig;
  secret: string | null;
} {
  const split = splitByKind(input);
  return { config: { ...split.config, hasSecret: split.secret !== null }, secret: split.secret };
}

function splitByKind(input: AddAlertChannelInput): { config: ChannelConfig; secret: string | null } {
  switch (input.kind) {
    case 'webhook':
      return { config: { url: input.url ?? '' }, secret: newSigningSecret() };
    case 'telegram':
      return {
        config: { chatId: input.chatId ?? '', serverUrl: input.serverUrl ?? TELEGRAM_API_DEFAULT },
        secret: input.token ?? null,
      };
    case 'ntfy':
      return {
        config: { serverUrl: input.serverUrl ?? NTFY_SERVER_DEFAULT, topic: input.topic ?? '' },
        secret: input.token ?? null,
      };
    case 'slack':
    case 'discord':
      return { config: { displayHost: new URL(input.url ?? '').host }, secret: input.url ?? null };
    case 'email':
      return {
        config: {
          host: input.host ?? '',
          port: input.port ?? (input.secure ? 465 : 587),
          secure: input.secure ?? false,
          ...(input.username ? { username: input.username } : {}),
          from: input.from ?? '',
          to: input.to ?? '',
        },
        secret: input.password ?? null,
      };
  }
}

/** Where a channel sends, for the list: never the secret (Slack's and Discord's URL are the secret). */
export function destinationOf(channel: StoredChannel): AlertChannelView['destination'] {
  const { config } = channel;
  switch (channel.kind) {
    case 'webhook':
      return config.url ?? '';
    case 'telegram':
      return `chat ${config.chatId ?? ''} via ${config.serverUrl ?? TELEGRAM_API_DEFAULT}`;
    case 'ntfy':
      return `${(config.serverUrl ?? NTFY_SERVER_DEFAULT).replace(/\/+$/, '')}/${config.topic ?? ''}`;
    case 'slack':
    case 'discord':
      return `incoming webhook on ${config.displayHost ?? '?'}`;
    case 'email':
      return `${config.host ?? ''}:${config.port ?? 587} → ${config.to ?? ''}`;
  }
}

/** Builds the channel from its settings and secret; throws a permanent failure when the secret is gone. */
export function buildChannel(channel: StoredChannel, secret: string | null): AlertChannel {
  const { config } = channel;
  const needSecret = (): string => {
    if (secret === null)
      throw new DeliveryFailure(
        'Its secret is not in the keychain any more (a run without a keychain keeps it only in memory): add the channel again.',
        true,
      );
    return secret;
  };
  switch (channel.kind) {
    case 'webhook':
      return webhookChannel(config.url ?? '', needSecret());
    case 'telegram':
      return telegramChannel(config.serverUrl ?? TELEGRAM_API_DEFAULT, needSecret(), config.chatId ?? '');
    case 'ntfy':
      return ntfyChannel(config.serverUrl ?? NTFY_SERVER_DEFAULT, config.topic ?? '', secret);
    case 'slack':
      return slackChannel(needSecret());
    case 'discord':
      return discordChannel(needSecret());
    case 'email':
      return emailChannel(
        {
          host: config.host ?? '',
          port: config.port ?? 587,
          secure: config.secure ?? false,
          username: config.username ?? null,
          from: config.from ?? '',
          to: config.to ?? '',
        },
        secret,
      );
  }
}

/** undici's ProxyAgent (HTTP channels) and a proxy URL (SMTP through nodemailer's CONNECT) for a local proxy. */
export function proxyContext(route: LocalProxyRoute): Omit<SendContext, 'now'> {
  const token =
    route.username !== null
      ? `Basic ${Buffer.from(`${route.username}:${route.password ?? ''}`).toString('base64')}`
      : undefined;
  const url = new URL(route.url);
  if (route.username !== null) {
    url.username = encodeURIComponent(route.username);
    url.password = encodeURIComponent(route.password ?? '');
  }
  return {
    dispatcher: new ProxyAgent({ uri: route.url, ...(token ? { token } : {}) }),
    proxyUrl: url.toString(),
  };
}
