/**
 * The contract's channel names as plain data, for the preload: it builds `window.api` from these
 * lists and must not bundle zod or any schema (main validates every input; the preload only
 * forwards). `contract/index.ts` checks at compile time that these lists are exactly the contract's
 * channels, so they cannot drift.
 */

export const CALL_CHANNELS = [
  'app:getState',
  'app:dismissNotice',
  'app:cancelCall',
  'app:openExternal',
  'app:saveFile',
  'connection:test',
  'connection:check',
  'profiles:create',
  'profiles:update',
  'profiles:delete',
  'profiles:switch',
  'profiles:setKey',
  'profiles:removeKey',
  'demo:start',
  'demo:stop',
  'settings:get',
  'settings:update',
  'catalog:countries',
  'catalog:states',
  'catalog:cities',
  'catalog:citiesOf',
  'catalog:asns',
  'catalog:carriers',
  'catalog:coins',
  'ports:list',
  'ports:get',
  'ports:update',
  'ports:rotate',
  'ports:rotateMany',
  'ports:relocate',
  'ports:relocations',
  'ports:resetPassword',
  'ports:ipHistory',
  'ports:exportIpHistory',
  'ports:usage',
  'ports:revealRotationLink',
  'ports:receipts',
  'subscriptions:list',
  'subscriptions:get',
  'subscriptions:update',
  'subscriptions:resetPassword',
  'subscriptions:usage',
  'subscriptions:exportUsage',
  'subscriptions:subUsers',
  'subscriptions:createSubUser',
  'subscriptions:updateSubUser',
  'subscriptions:deleteSubUser',
  'subscriptions:createSubUsers',
  'subscriptions:exportCredentials',
  'subscriptions:buildProxyString',
  'topups:list',
  'schedules:list',
  'schedules:set',
  'schedules:remove',
  'schedules:pause',
  'schedules:runs',
  'tray:get',
  'tray:setPinned',
  'alerts:list',
  'alerts:dismiss',
  'topups:get',
  'topups:create',
  'topups:declareTxid',
  'topups:plans',
  'topups:simulatePayment',
  'topups:exportCsv',
  'topups:paymentDetails',
  'topups:pending',
  'proxy:test',
  'proxy:testMany',
  'localProxies:list',
  'localProxies:add',
  'localProxies:update',
  'localProxies:remove',
  'localProxies:start',
  'localProxies:stop',
  'overview:get',
  'automation:tokens',
  'automation:createToken',
  'automation:revokeToken',
  'automation:audit',
  'automation:restStatus',
  'automation:setRest',
] as const;

export const EVENT_CHANNELS = [
  'app:stateChanged',
  'app:callSlow',
  'app:navigate',
  'ports:changed',
  'ports:rotation',
  'subscriptions:changed',
  'topups:changed',
  'settings:changed',
  'schedules:changed',
  'tray:changed',
  'alerts:raised',
  'localProxies:changed',
] as const;

/** Splits `domain:name` and gives the `window.api` member names; shared by the preload and the web transport. */
export function apiMemberOf(channel: string): { domain: string; member: string } {
  const [domain = '', name = ''] = channel.split(':');
  return { domain, member: name };
}

export function eventMemberOf(channel: string): { domain: string; member: string } {
  const { domain, member } = apiMemberOf(channel);
  return { domain, member: `on${member.charAt(0).toUpperCase()}${member.slice(1)}` };
}
