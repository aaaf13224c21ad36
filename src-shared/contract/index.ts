/**
 * The one contract between main and every surface (window, web mode), merged from one file per domain
 * (`contract/<domain>.ts`). Every call is declared once, named `domain:name`, with a zod schema for
 * its input (validated in main before any handler runs) and the type of its output; every
 * main-to-renderer event is declared once too. A channel that is not here does not exist.
 *
 * Free of Node and Electron imports: the renderer type-checks against it (`import type` only). The
 * preload does not bundle it: it builds `window.api` from `./channel-names.ts`.
 */
import type { z } from 'zod';
import type { CALL_CHANNELS, EVENT_CHANNELS } from './channel-names';
import { alertRoutingCalls } from './alert-routing';
import { alertsCalls, alertsEvents } from './alerts';
import { appCalls, appEvents } from './app';
import { automationCalls } from './automation';
import { catalogCalls } from './catalog';
import { connectionCalls } from './connection';
import { demoCalls } from './demo';
import { localProxiesCalls, localProxiesEvents } from './local-proxies';
import { overviewCalls } from './overview';
import { portsCalls, portsEvents } from './ports';
import { profilesCalls } from './profiles';
import { proxyCalls } from './proxy';
import type { IpcResult } from './results';
import { schedulesCalls, schedulesEvents } from './schedules';
import { settingsCalls, settingsEvents } from './settings';
import { subscriptionsCalls, subscriptionsEvents } from './subscriptions';
import { topupsCalls, topupsEvents } from './topups';
import { trayCalls, trayEvents } from './tray';
import { updatesCalls, updatesEvents } from './updates';

export type { AlertKindName, AlertView } from './alerts';
export type {
  AddedAlertChannel,
  AlertChannelKind,
  AlertChannelRule,
  AlertChannelView,
  ChannelTestResult,
  DeliveryLogEntry,
  DeliveryLogView,
  DeliveryStatus,
  LocalReceiverView,
  ReceivedAlertView,
} from './alert-routing';
export type { AuditEntry, AutomationTokenView, CreatedAutomationToken, RestApiStatus } from './automation';
export type { AppNavigate, AppRoute, AppState, CallSlow, InitialState, JobsStatus, Notice } from './app';
export { CALL_ID_PATTERN, isAppRoute } from './app';
export type { ConnectionState, ConnectionStatus, ConnectionTestResult } from './connection';
export type {
  PortHealth,
  PortHealthChanged,
  PortHealthCheck,
  PortHealthHistory,
  PortHealthSegment,
  PortHealthStatus,
  RotationVerdict,
  RotationVerdictKind,
  SubscriptionHealth,
} from './port-health';
export type {
  ExitIpVerification,
  IpHistoryExport,
  IpHistoryRow,
  IpHistoryView,
  MobilePortView,
  PortRow,
  PortRowValues,
  PortsChanged,
  PortsListView,
  PortsRotation,
  RelocationProgress,
  RotateManyOutcome,
  RotationReceipt,
  RotationTrigger,
} from './ports';
export type {
  LocalProxiesChanged,
  LocalProxiesView,
  LocalProxyConfig,
  LocalProxyError,
  LocalProxyErrorKind,
  LocalProxyHealth,
  LocalProxyStats,
  LocalProxyUpstream,
  LocalProxyView,
} from './local-proxies';
export type {
  AttentionAction,
  AttentionCard,
  AttentionGroup,
  AttentionItem,
  AttentionLevel,
  AttentionScreen,
  HealthSnapshot,
  HealthSourceState,
} from './overview';
export { ATTENTION_LEVEL_WORDS, ATTENTION_SCREENS } from './overview';
export type { ProfileSummary } from './profiles';
export type {
  ProxyExit,
  ProxyFailureKind,
  ProxyProtocol,
  ProxyTestResult,
  ProxyTestTarget,
  ProxyTestTargetInput,
} from './proxy';
export type { IpcError, IpcFieldError, IpcResult } from './results';
export type {
  PortSchedule,
  ScheduleCadence,
  ScheduleRun,
  ScheduleRunResult,
  ScheduleRunTrigger,
  SchedulesChanged,
  SchedulesView,
} from './schedules';
export type {
  Density,
  DesktopPreferences,
  SavedTableView,
  SettingsView,
  ShortcutPreferences,
  TrafficThresholdView,
} from './settings';
export type { KeyStorage, PathStyle } from './shared-inputs';
export type {
  CredentialFormat,
  ProxyStringResult,
  SubscriptionsChanged,
  SubUserRow,
  SubUsersListView,
  TextExport,
} from './subscriptions';
export type { TrayView } from './tray';
export type { UpdatePreferences, UpdateStatus } from './updates';
export type {
  PendingTopUpSummary,
  SimulatedPayment,
  TopUpPaymentDetails,
  TopUpPlanChoice,
  TopUpsChanged,
  TopUpsCsvExport,
} from './topups';
export { PORT_ROW_COLUMNS } from './ports';
export type { SnapshotScreen, WireTable } from './list-views';
export { FULL_GRANT, SCOPES, SECRET_FIELDS, type Scope } from './scopes';

export const ipcCalls = {
  ...appCalls,
  ...connectionCalls,
  ...profilesCalls,
  ...demoCalls,
  ...settingsCalls,
  ...catalogCalls,
  ...portsCalls,
  ...subscriptionsCalls,
  ...topupsCalls,
  ...schedulesCalls,
  ...trayCalls,
  ...alertsCalls,
  ...alertRoutingCalls,
  ...proxyCalls,
  ...localProxiesCalls,
  ...overviewCalls,
  ...automationCalls,
  ...updatesCalls,
} as const;

export const ipcEvents = {
  ...appEvents,
  ...settingsEvents,
  ...portsEvents,
  ...subscriptionsEvents,
  ...topupsEvents,
  ...schedulesEvents,
  ...trayEvents,
  ...alertsEvents,
  ...localProxiesEvents,
  ...updatesEvents,
} as const;

// ---------------------------------------------------------------------------------------------------
// Types derived from the contract

export type CallChannel = keyof typeof ipcCalls;
export type EventChannel = keyof typeof ipcEvents;

type CallSchema<C extends CallChannel> = (typeof ipcCalls)[C]['input'];
/** What the renderer may pass. */
export type CallInput<C extends CallChannel> = z.input<CallSchema<C>>;
/** What the handler receives, after parsing (defaults applied). */
export type ParsedCallInput<C extends CallChannel> = z.output<CallSchema<C>>;
export type CallOutput<C extends CallChannel> = NonNullable<(typeof ipcCalls)[C]['output']>;
export type EventPayload<E extends EventChannel> = NonNullable<(typeof ipcEvents)[E]['payload']>;

type CallHandler<C extends CallChannel> = (input: ParsedCallInput<C>) => Promise<CallOutput<C>>;

/** Main's side: one handler per call, exhaustively. */
export type ContractHandlers = { [C in CallChannel]: CallHandler<C> };

type DomainOf<K extends string> = K extends `${infer Domain}:${string}` ? Domain : never;
type NameOf<K extends string> = K extends `${string}:${infer Name}` ? Name : never;
type Domain = DomainOf<CallChannel> | DomainOf<EventChannel>;
export type CallDomain = DomainOf<CallChannel>;

/** The handlers of one domain, exactly: what a domain service's `handlers()` returns. */
export type DomainHandlers<D extends CallDomain> = {
  [C in CallChannel as C extends `${D}:${string}` ? C : never]: CallHandler<C>;
};

/** Beside a call's input: the window's id for the call, so that `app:cancelCall` can stop it. */
export interface CallMeta {
  callId?: string;
}

type CallFunction<C extends CallChannel> =
  undefined extends CallInput<C>
    ? (input?: CallInput<C>, meta?: CallMeta) => Promise<IpcResult<CallOutput<C>>>
    : (input: CallInput<C>, meta?: CallMeta) => Promise<IpcResult<CallOutput<C>>>;

type Listener<E extends EventChannel> = (payload: EventPayload<E>) => void;

/**
 * `window.api`: `api.catalog.countries({ product })` for the call `catalog:countries`, and
 * `api.app.onStateChanged(listener)` (returning an unsubscribe function) for the event `app:stateChanged`.
 */
export type RendererApi = {
  [D in Domain]: {
    [C in CallChannel as DomainOf<C> extends D ? NameOf<C> : never]: CallFunction<C>;
  } & {
    [E in EventChannel as DomainOf<E> extends D ? `on${Capitalize<NameOf<E>>}` : never]: (
      listener: Listener<E>,
    ) => () => void;
  };
};

// The preload's plain lists must be exactly the contract's channels (both ways).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const callNamesMatch: Same<(typeof CALL_CHANNELS)[number], CallChannel> = true;
const eventNamesMatch: Same<(typeof EVENT_CHANNELS)[number], EventChannel> = true;
void callNamesMatch;
void eventNamesMatch;
