import { ATTENTION_LEVEL_WORDS } from '../../../src-shared/attention-levels';
import type {
  AlertView,
  AppState,
  AttentionItem,
  HealthSnapshot,
  HealthSourceState,
  ProfileSummary,
  ProxyTestResult,
} from '../../../src-shared/contract';
import {
  CallFailed,
  type CommandContext,
  type CommandSpec,
  EXIT,
  type ExitCode,
  printValue,
} from '../command-spec';
import { localTime, table } from '../output';
import { type PlaceNames, placeNamesOf } from '../place-names';

function renderProfiles(profiles: ProfileSummary[], context: CommandContext): string {
  return table(context.out, profiles, [
    { header: '', value: (p) => (p.active ? '*' : ' ') },
    { header: 'NAME', value: (p) => p.name },
    { header: 'KIND', value: (p) => p.kind },
    { header: 'BASE URL', value: (p) => p.baseUrl },
    {
      header: 'KEY',
      value: (p) => (p.key.configured ? `${p.key.masked ?? 'set'} (${p.key.source})` : 'none'),
    },
  ]);
}

/** `profiles list`: the profiles of the app state (`app:getState`), as the window's switcher shows them. */
async function listProfiles(context: CommandContext): Promise<ExitCode> {
  const state = await context.call('app:getState', undefined);
  await printValue(context, appCommands.profilesList, state.profiles);
  return EXIT.done;
}

/** `profiles use NAME`: the saved profile of that name (or id) becomes the active one, for every surface. */
async function useProfile(context: CommandContext, input: unknown): Promise<ExitCode> {
  const wanted = (input as { profileId: string }).profileId;
  const state = await context.call('app:getState', undefined);
  const profile =
    state.profiles.find((p) => p.name === wanted && p.kind === 'account') ??
    state.profiles.find((p) => p.id === wanted);
  if (!profile) {
    const names = state.profiles.filter((p) => p.kind === 'account').map((p) => `"${p.name}"`);
    throw new CallFailed({
      code: 'profile_not_found',
      message: `No profile named "${wanted}"${names.length > 0 ? ` (saved: ${names.join(', ')})` : ''}.`,
    });
  }
  const next: AppState = await context.call('profiles:switch', { profileId: profile.id });
  if (context.json) context.out.json(next);
  else context.out.out(`Active profile: ${next.activeProfile?.name ?? profile.name}`);
  return EXIT.done;
}

function renderTest(result: ProxyTestResult, places: PlaceNames): string {
  const via = `${result.proxy.protocol}://${result.proxy.host}:${result.proxy.port}`;
  if (!result.ok || !result.exit) {
    return `Failed through ${via}: ${result.failure?.message ?? 'no answer'}${result.failure?.detail ? ` (${result.failure.detail})` : ''}`;
  }
  const { country, city, carrier } = result.exit;
  const where = [
    country === null ? null : places.country(country),
    country === null ? city : places.city(country, city),
    carrier,
  ]
    .filter(Boolean)
    .join(', ');
  const timing = result.timings.firstByteMs ?? result.timings.totalMs;
  return `OK through ${via}: exit IP ${result.exit.ip}${where ? ` (${where})` : ''}, first byte after ${timing} ms`;
}

/** `test`: a failed proxy test ends with exit code 1 (its result is still printed). */
async function runTest(context: CommandContext, input: unknown): Promise<ExitCode> {
  context.out.progress('Testing through the proxy…');
  const result = await context.call('proxy:test', input);
  context.out.clearProgress();
  if (context.json) context.out.json(result);
  else {
    const places = await placeNamesOf(context, result.exit?.country ? [result.exit.country] : []);
    context.out.out(renderTest(result, places));
  }
  if (result.ok) return EXIT.done;
  if (context.json) context.out.error(result.failure?.message ?? 'The proxy test failed.');
  return EXIT.failed;
}

/** The DUE column: local time and the model's relative words; a forecast says so. */
function dueText(item: AttentionItem): string {
  if (item.dueAt === null) return '';
  const relative = item.dueIn ? ` (${item.dueIsForecast ? 'forecast: ' : ''}${item.dueIn})` : '';
  return `${item.dueIsForecast ? '~' : ''}${localTime(item.dueAt)}${relative}`;
}

const SOURCE_WORDS = {
  ports: 'the ports',
  subscriptions: 'the subscriptions',
  topups: 'the top-ups',
} as const;

/** "Not known: the top-ups could not be read (last read 2026-11-29 16:05; never this run): …". */
function unknownLines(snapshot: HealthSnapshot): string[] {
  return (Object.entries(snapshot.sources) as [keyof typeof SOURCE_WORDS, HealthSourceState][]).flatMap(
    ([name, source]) =>
      source.state === 'failed'
        ? [
            `Not known: ${SOURCE_WORDS[name]} could not be read (last read ${source.lastReadAt ? localTime(source.lastReadAt) : 'never'}): ${source.message}`,
          ]
        : [],
  );
}

/**
 * What `health` prints: "All good" first when it is (what follows is only worth knowing), what
 * could not be read first when something could not, then the items with the screen's words
 * (Now / Soon / FYI) and local times.
 */
function renderHealth(snapshot: HealthSnapshot, context: CommandContext): string {
  const { totals } = snapshot;
  const holds = `${totals.ports} ports, ${totals.subscriptions} subscriptions, ${totals.pendingTopUps} pending top-ups`;
  const lines: string[] = [];
  if (snapshot.allGood) {
    lines.push(
      snapshot.items.length === 0 ? `All good: ${holds}.` : `All good: ${holds}. Only worth knowing:`,
    );
  } else {
    lines.push(...unknownLines(snapshot));
  }
  if (snapshot.items.length > 0) {
    lines.push(
      table(context.out, snapshot.items, [
        { header: 'LEVEL', value: (item) => item.levelWord },
        { header: 'DUE', value: dueText },
        { header: 'WHAT', value: (item) => item.title },
        { header: 'NEXT', value: (item) => item.detail },
      ]),
    );
  } else if (!snapshot.allGood) {
    lines.push('Nothing needs attention in what could be read.');
  }
  return lines.join('\n');
}

/**
 * `health`: the overview's snapshot; with `--check`, exit code 5 when a source could not be read
 * (what it would list is not known), else 4 when anything needs the user, else 0.
 */
async function runHealth(context: CommandContext, input: unknown): Promise<ExitCode> {
  const snapshot = await context.call('overview:get', input);
  await printValue(context, appCommands.health, snapshot);
  if (context.options.check !== true) return EXIT.done;
  if (Object.values(snapshot.sources).some((source) => source.state === 'failed')) return EXIT.unknown;
  return snapshot.allGood ? EXIT.done : EXIT.attention;
}

export const appCommands = {
  health: {
    path: ['health'],
    channel: 'overview:get',
    summary:
      'What needs attention now: ports expiring, subscriptions running out, payments waiting, failing schedules, proxy tests and local proxies',
    examples: [
      'proxy-manager health',
      'proxy-manager health --check --json',
      'proxy-manager health --refresh',
    ],
    fields: { describe: { refresh: 'read the ports, subscriptions and open top-ups again first' } },
    extra: [
      {
        flags: '--check',
        help: 'for monitoring: exit 4 when an error or a warning is listed, 5 when a list could not be read (not known), else 0',
      },
    ],
    run: runHealth,
    render: renderHealth,
  },
  alertsList: {
    path: ['alerts', 'list'],
    channel: 'alerts:list',
    summary:
      'List recent alerts whose cause still stands (traffic running out, caps reached, expiring ports), newest first',
    examples: ['proxy-manager alerts list'],
    render: (alerts: AlertView[], context: CommandContext) =>
      table(context.out, alerts, [
        { header: 'RAISED', value: (a) => localTime(a.raisedAt) },
        { header: 'LEVEL', value: (a) => ATTENTION_LEVEL_WORDS[a.level] },
        { header: 'KIND', value: (a) => a.kind },
        { header: 'SUBJECT', value: (a) => a.subjectId },
        { header: 'MESSAGE', value: (a) => a.message },
      ]),
  },
  profilesList: {
    path: ['profiles', 'list'],
    channel: 'app:getState',
    summary: 'List the profiles (the active one is marked *)',
    examples: ['proxy-manager profiles list'],
    run: listProfiles,
    render: renderProfiles,
  },
  profilesAdd: {
    path: ['profiles', 'add'],
    channel: 'profiles:create',
    summary:
      'Save a profile (an account: a base URL and an API key read from a prompt or stdin, never a flag)',
    examples: [
      'proxy-manager profiles add Work --base-url https://api.example.com',
      'printf %s "$KEY" | proxy-manager profiles add CI --base-url https://api.example.com',
    ],
    fields: {
      args: ['name'],
      hide: ['apiKey', 'duplicate'],
      describe: {
        name: 'a name for the profile',
        baseUrl: 'the service’s base URL, as the provider gives it',
        pathStyle: 'how the spec’s paths join the base URL (the connection test finds it)',
        storage: 'keychain (kept) or session (until the app quits)',
      },
    },
    secretFromStdin: { field: 'apiKey', prompt: 'API key (not shown)' },
    render: (state: AppState) =>
      `Saved profile "${state.profiles.at(-1)?.name ?? ''}". Make it the active one with \`proxy-manager profiles use NAME\`.`,
  },
  profilesUse: {
    path: ['profiles', 'use'],
    channel: 'profiles:switch',
    also: ['app:getState'],
    summary: 'Make a saved profile the active one (in the running app too)',
    examples: ['proxy-manager profiles use Work'],
    fields: {
      args: ['profileId'],
      rename: { profileId: 'name' },
      describe: { profileId: 'the profile’s name' },
    },
    run: useProfile,
  },
  testPort: {
    path: ['test', 'port'],
    channel: 'proxy:test',
    summary: 'Test a mobile port: one request through it, with its exit IP and timings',
    examples: ['proxy-manager test port port_1', 'proxy-manager test port port_1 --protocol socks5 --json'],
    fields: {
      args: ['target.portId'],
      variant: { target: 'port' },
      fixed: { 'target.kind': 'port' },
      rename: { 'target.portId': 'port-id' },
    },
    run: runTest,
  },
  testSubscription: {
    path: ['test', 'sub'],
    channel: 'proxy:test',
    summary: 'Test a subscription (or one sub-user) with the targeting of a proxy string',
    examples: [
      'proxy-manager test sub sub_1 --country US --state california',
      'proxy-manager test sub sub_1 --sub-user su_1 --session s1 --protocol socks5',
    ],
    fields: {
      args: ['target.subscriptionId'],
      variant: { target: 'subscription' },
      fixed: { 'target.kind': 'subscription' },
      rename: { 'target.subscriptionId': 'subscription-id', 'target.subUserId': 'sub-user' },
      defaults: { 'target.protocol': 'http' },
    },
    run: runTest,
  },
} satisfies Record<string, CommandSpec>;
