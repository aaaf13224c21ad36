export {
  startSandbox,
  DEFAULT_API_KEYS,
  API_PREFIX,
  CONTROL_PREFIX,
  type ApiKeySpec,
  type RunningSandbox,
  type SandboxOptions,
} from './sandbox-server';
export type { GatewayEndpoint } from './gateway/gateway-endpoint';
