import type { AppCore } from '../core/app-core';
import type { ContractHandlers } from './contract';

/** Every contract call, mapped to the core. The type makes a missing or misspelt channel a compile error. */
export function createIpcHandlers(core: AppCore): ContractHandlers {
  return {
    'app:getState': () => core.getState(),
    'app:dismissNotice': (input) => core.dismissNotice(input),
    'connection:test': (input) => core.testConnection(input),
    'connection:check': () => core.checkConnection(),
    'profiles:create': (input) => core.createProfile(input),
    'profiles:update': (input) => core.updateProfile(input),
    'profiles:delete': (input) => core.deleteProfile(input),
    'profiles:switch': (input) => core.switchProfile(input),
    'profiles:setKey': (input) => core.setKey(input),
    'profiles:removeKey': (input) => core.removeKey(input),
    'demo:start': () => core.startDemo(),
    'demo:stop': () => core.stopDemo(),
    'settings:get': () => core.getSettings(),
    'settings:update': (input) => core.updateSettings(input),
    'catalog:countries': (input) => core.listCountries(input),
    'catalog:states': (input) => core.listStates(input),
    'catalog:cities': (input) => core.listCities(input),
    'catalog:asns': (input) => core.listAsns(input),
    'catalog:carriers': (input) => core.listCarriers(input),
    'catalog:coins': () => core.listCoins(),
    'ports:list': () => core.listPorts(),
    'subscriptions:list': (input) => core.listSubscriptions(input),
    'topups:list': (input) => core.listTopUps(input),
  };
}
