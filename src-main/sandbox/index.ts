export {
  startSandbox,
  DEFAULT_API_KEYS,
  API_PREFIX,
  CONTROL_PREFIX,
  type ApiKeySpec,
  type RunningSandbox,
  type SandboxOptions,
} from './sandbox-server';
