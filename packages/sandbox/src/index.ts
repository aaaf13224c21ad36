/**
 * `@proxy-manager/sandbox`: what the app (and a user's script) needs to run a sandbox in its own
 * process. Test helpers are in `@proxy-manager/sandbox/testing`; the CLI is the `proxy-sandbox` bin.
 */
export {
  DEFAULT_API_KEYS,
  startSandbox,
  type ApiKeySpec,
  type RunningSandbox,
  type SandboxOptions,
} from './sandbox-server';
export type { GatewayEndpoint } from './gateway/gateway-endpoint';
export { SCALE_LIMITS, type SandboxScale } from './sandbox-scale';
