/**
 * `@proxy-manager/sandbox/testing`: for tests that run against a sandbox, in this package and in the
 * app. Never imported by the app's own code.
 */
export { DEMO_KEY, TEST_START_TIME, TestSandbox, type HttpAnswer, type RequestOptions } from './test-sandbox';
export {
  fullHistory,
  listPorts,
  listSubscriptions,
  listSubUsers,
  manualPort,
  portByLabel,
  SEEDED_PORT_LABELS,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
} from './seeded-demo';
// What a test needs to mount a module of its own (`SandboxOptions.extraModules`).
export { BodyReader, QueryReader } from '../http/input-reader';
export { paginate, readPageRequest } from '../http/pagination';
export type { SandboxModule, SandboxModuleFactory, SandboxWorld } from '../sandbox-world';
