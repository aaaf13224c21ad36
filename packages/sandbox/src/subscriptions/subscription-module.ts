import { replacePassword } from '../gateway/gateway-credentials';
import { BodyReader, QueryReader } from '../http/input-reader';
import type { RouteDefinition } from '../http/router';
import { conflict, notFound } from '../http/sandbox-error';
import type { SandboxModule, SandboxWorld } from '../sandbox-world';
import { buildLedgerReport, readUsageWindow, type UsageLedger } from '../usage/usage-report';
import { addSubUser, generatePassword, isAcceptablePassword } from './subscription-records';
import { liveSubUsers, nextPendingExpiry, settleExpiries, settleSubscription } from './subscription-traffic';
import {
  LABEL_MAX_LENGTH,
  MAX_SUB_USERS,
  PASSWORD_MAX_LENGTH,
  type SubscriptionRecord,
  type SubUserRecord,
  TRAFFIC_PRODUCT_IDS,
} from './subscription-types';
import { subscriptionView, subUserView } from './subscription-views';
import { PROXIES_SCOPE } from '../sandbox-scopes';

const BASE = '/v1/residential/subscriptions';

/** A label: 1-60 characters, not only spaces, no control, bidi-override or unpaired surrogate characters. */
function readLabel(reader: BodyReader, required: boolean): string | undefined {
  const label = reader.string('label', { required, min: 1, max: LABEL_MAX_LENGTH, displayText: true });
  if (label !== undefined && label.trim().length === 0) {
    reader.errors.add('label', 'required', 'must not be blank');
    return undefined;
  }
  return label;
}

/** A sub-user password: 1-64 printable ASCII characters without spaces. */
function readPassword(reader: BodyReader): string | undefined {
  const password = reader.string('password', { min: 1, max: PASSWORD_MAX_LENGTH });
  if (password !== undefined && !isAcceptablePassword(password)) {
    reader.errors.add('password', 'invalid_format', 'must be printable ASCII characters without spaces');
    return undefined;
  }
  return password;
}

const readTrafficLimit = (reader: BodyReader): number | null | undefined =>
  reader.integer('trafficLimitBytes', { nullable: true, min: 0 });

/** Traffic subscriptions and their sub-users (`/v1/residential/subscriptions...`). */
export function createSubscriptionsModule(world: SandboxWorld): SandboxModule {
  const subscriptions = () => world.state.subscriptions.subscriptions;

  /** The subscription, with its traffic accounted up to `now`; unknown ids are 404. */
  const loadSubscription = (id: string | undefined, now: number): SubscriptionRecord => {
    const sub = subscriptions().find((s) => s.id === id);
    if (!sub) throw notFound(`Subscription ${id ?? ''}`);
    settleSubscription(sub, now, world.state.account);
    return sub;
  };

  /** A sub-user of that subscription; deleted ones and other subscriptions' are 404. */
  const findSubUser = (sub: SubscriptionRecord, id: string | undefined): SubUserRecord => {
    const subUser = liveSubUsers(sub).find((s) => s.id === id);
    if (!subUser) throw notFound(`Sub-user ${id ?? ''} of subscription ${sub.id}`);
    return subUser;
  };

  const routes: RouteDefinition[] = [
    {
      method: 'GET',
      path: BASE,
      auth: 'bearer',
      handler: ({ query, now }) => {
        const reader = new QueryReader(query);
        const productId = reader.oneOf('productId', TRAFFIC_PRODUCT_IDS);
        reader.throwIfAny();
        const data = subscriptions()
          .filter((s) => productId === undefined || s.productId === productId)
          .map((s) => {
            settleSubscription(s, now, world.state.account);
            return subscriptionView(s, now, world.gateway);
          });
        return { status: 200, body: { data } };
      },
    },
    {
      method: 'GET',
      path: `${BASE}/:subscriptionId`,
      auth: 'bearer',
      handler: ({ params, now }) => ({
        status: 200,
        body: subscriptionView(loadSubscription(params.subscriptionId, now), now, world.gateway),
      }),
    },
    {
      method: 'PATCH',
      path: `${BASE}/:subscriptionId`,
      auth: 'bearer',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: ({ params, body, now }) => {
        const sub = loadSubscription(params.subscriptionId, now);
        const reader = BodyReader.of(body, { emptyAllowed: true });
        const label = readLabel(reader, false);
        const autoRenew = reader.boolean('autoRenew');
        reader.throwIfAny();
        if (label !== undefined) sub.label = label;
        if (autoRenew !== undefined) sub.autoRenew = autoRenew;
        return { status: 200, body: subscriptionView(sub, now, world.gateway) };
      },
    },
    {
      method: 'POST',
      path: `${BASE}/:subscriptionId/reset-password`,
      auth: 'bearer',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: ({ params, now }) => {
        const sub = loadSubscription(params.subscriptionId, now);
        let password = generatePassword(world.random);
        while (password === sub.password) password = generatePassword(world.random);
        replacePassword(sub, password, now);
        return { status: 200, body: subscriptionView(sub, now, world.gateway) };
      },
    },
    {
      method: 'GET',
      path: `${BASE}/:subscriptionId/usage`,
      auth: 'bearer',
      handler: ({ params, query, now }) => {
        const sub = loadSubscription(params.subscriptionId, now);
        const reader = new QueryReader(query);
        const subUserId = reader.string('subUserId');
        const { fromMs, toMs } = readUsageWindow(reader, now);
        // The whole subscription includes deleted sub-users: their traffic was used all the same.
        const ledgers: UsageLedger[] =
          subUserId === undefined ? [sub.main, ...sub.subUsers] : [findSubUser(sub, subUserId)];
        return { status: 200, body: buildLedgerReport(ledgers, fromMs, toMs) };
      },
    },
    {
      method: 'GET',
      path: `${BASE}/:subscriptionId/sub-users`,
      auth: 'bearer',
      handler: ({ params, now }) => {
        const sub = loadSubscription(params.subscriptionId, now);
        return {
          status: 200,
          body: { data: liveSubUsers(sub).map(subUserView), limit: sub.subUserLimit ?? MAX_SUB_USERS },
        };
      },
    },
    {
      method: 'POST',
      path: `${BASE}/:subscriptionId/sub-users`,
      auth: 'bearer',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: ({ params, body, now }) => {
        const sub = loadSubscription(params.subscriptionId, now);
        const reader = BodyReader.of(body, { emptyAllowed: false });
        const label = readLabel(reader, true);
        const password = readPassword(reader);
        const trafficLimitBytes = readTrafficLimit(reader);
        reader.throwIfAny();
        const limit = sub.subUserLimit ?? MAX_SUB_USERS;
        if (liveSubUsers(sub).length >= limit) {
          throw conflict(
            'sub_user_limit_reached',
            `A subscription can have at most ${limit} sub-users; delete one first`,
          );
        }
        const subUser = addSubUser(world.state.subscriptions, sub, world, {
          label: label as string,
          password,
          trafficLimitBytes: trafficLimitBytes ?? null,
          createdAt: now,
        });
        return { status: 201, body: subUserView(subUser) };
      },
    },
    {
      method: 'PATCH',
      path: `${BASE}/:subscriptionId/sub-users/:subUserId`,
      auth: 'bearer',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: ({ params, body, now }) => {
        const sub = loadSubscription(params.subscriptionId, now);
        const subUser = findSubUser(sub, params.subUserId);
        const reader = BodyReader.of(body, { emptyAllowed: true });
        const label = readLabel(reader, false);
        const trafficLimitBytes = readTrafficLimit(reader);
        const enabled = reader.boolean('enabled');
        const regeneratePassword = reader.boolean('regeneratePassword');
        reader.throwIfAny();
        // The sub-user's traffic is accounted up to now, so a new cap or toggle applies from now on.
        if (label !== undefined) subUser.label = label;
        if (trafficLimitBytes !== undefined) subUser.trafficLimitBytes = trafficLimitBytes;
        if (enabled !== undefined) subUser.enabled = enabled;
        if (regeneratePassword === true) {
          let password = generatePassword(world.random);
          while (password === subUser.password) password = generatePassword(world.random);
          replacePassword(subUser, password, now);
        }
        return { status: 200, body: subUserView(subUser) };
      },
    },
    {
      method: 'DELETE',
      path: `${BASE}/:subscriptionId/sub-users/:subUserId`,
      auth: 'bearer',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: ({ params, now }) => {
        const sub = loadSubscription(params.subscriptionId, now);
        const subUser = findSubUser(sub, params.subUserId);
        subUser.deletedAt = now;
        subUser.enabled = false;
        return { status: 204 };
      },
    },
  ];

  return {
    name: 'subscriptions',
    routes,
    settle: (now) => settleExpiries(subscriptions(), now, world.state.account),
    nextEventAt: () => nextPendingExpiry(subscriptions(), Number.POSITIVE_INFINITY)?.expiresAt ?? null,
  };
}
