import { runWithCallOptions } from '../api/call-context';
import type { UiCallRegistry } from '../core/session/ui-calls';
import {
  CALL_ID_PATTERN,
  type ContractHandlers,
  FULL_GRANT,
  type IpcResult,
  ipcCalls,
  type Scope,
} from '../../src-shared/contract';
import { withoutSecrets } from './secret-redaction';
import { invalidInputError, toIpcError } from '../core/wire-error';
import { type AutomationOrigin, runWithOrigin } from '../core/runtime/call-origin';

export interface GuardedDispatcherOptions<Sender> {
  handlers: ContractHandlers;
  /** The transport's idea of "our own UI": the app's main frame in Electron, a token holder on the web. */
  isTrustedSender: (sender: Sender) => boolean;
  log: (line: string) => void;
  /** Cancel and "still waiting…" for calls that carry a `callId` (the app core's `uiCalls`). */
  uiCalls?: UiCallRegistry;
  /** The scopes this sender's session holds; default: all (the app's own window and page). */
  grantOf?: (sender: Sender) => ReadonlySet<Scope>;
}

/** What a transport passes beside the input: the window's id for this call, to cancel it by. */
interface CallMeta {
  callId?: unknown;
  /** The automation surface the call came from (a receipt records it as its trigger). */
  origin?: AutomationOrigin;
}

export type GuardedDispatch<Sender> = (
  sender: Sender,
  channel: string,
  rawInput: unknown,
  meta?: CallMeta,
) => Promise<IpcResult<unknown>>;

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/**
 * The one way a request from the UI reaches a handler, whatever the transport: the sender is checked,
 * the channel must be in the contract, the input is parsed by the channel's schema, and every outcome
 * is an `IpcResult`. Nothing a caller sends can throw past this function.
 */
export function createGuardedDispatcher<Sender>(
  options: GuardedDispatcherOptions<Sender>,
): GuardedDispatch<Sender> {
  return async (sender, channel, rawInput, meta) => {
    try {
      if (!options.isTrustedSender(sender)) {
        options.log(`refused ${channel}: untrusted sender`);
        return { ok: false, error: { code: 'forbidden', message: 'This window may not call the app.' } };
      }
      if (typeof channel !== 'string' || !hasOwn(ipcCalls, channel)) {
        return { ok: false, error: { code: 'unknown_channel', message: 'Unknown call.' } };
      }
      const name = channel as keyof typeof ipcCalls;
      const { scope } = ipcCalls[name];
      const grant = options.grantOf?.(sender) ?? FULL_GRANT;
      if (!grant.has(scope)) {
        return {
          ok: false,
          error: {
            code: 'scope_denied',
            message: `This session may not call ${name}: it needs the "${scope}" scope.`,
            scope,
          },
        };
      }
      const parsed = ipcCalls[name].input.safeParse(rawInput);
      if (!parsed.success) return { ok: false, error: invalidInputError(parsed.error) };
      const handle = options.handlers[name] as (input: unknown) => Promise<unknown>;
      const run = (input: unknown) => runWithOrigin(meta?.origin, () => handle(input));
      // Passwords and rotation links reach only a session that holds `secrets`.
      const handler = grant.has('secrets') ? run : async (input: unknown) => withoutSecrets(await run(input));
      const callId = meta?.callId;
      if (!options.uiCalls || typeof callId !== 'string' || !CALL_ID_PATTERN.test(callId)) {
        return { ok: true, value: await handler(parsed.data) };
      }
      // Every request the handler makes inherits this call's Cancel and "still waiting" hook.
      const call = options.uiCalls.begin(callId, name);
      try {
        const value = await runWithCallOptions({ signal: call.signal, onSlow: call.onSlow }, () =>
          handler(parsed.data),
        );
        return { ok: true, value };
      } finally {
        call.end();
      }
    } catch (error) {
      return { ok: false, error: toIpcError(error, options.log) };
    }
  };
}
