import type { TopUp, TopUpPage } from '../../../src-shared/api-types';
import {
  type CommandContext,
  type CommandSpec,
  EXIT,
  type ExitCode,
  printValue,
  timeoutMs,
} from '../command-spec';
import { details, localTime, table } from '../output';

/** The spec's polling guidance for `GET /v1/topups/{id}`: 10 s while verifying, 30 s while waiting. */
const TOP_UP_POLL_MS = { verifying: 10_000, waiting: 30_000 } as const;
const WAIT_DEFAULT_SECONDS = 3_600;

const wait = [
  { flags: '--wait', help: 'follow the top-up until it is final (credited, or closed)' },
  {
    flags: '--timeout <seconds>',
    help: 'give up following after this long (exit code 3)',
    seconds: true,
    default: String(WAIT_DEFAULT_SECONDS),
  },
] as const;

function renderTopUps(page: TopUpPage, context: CommandContext): string {
  const rows = table(context.out, page.data, [
    { header: 'ID', value: (t) => t.id },
    { header: 'STATUS', value: (t) => t.status },
    { header: 'USD', value: (t) => t.amountUsd, right: true },
    { header: 'AMOUNT', value: (t) => `${t.amountCrypto} ${t.coin}`, right: true },
    { header: 'NETWORK', value: (t) => t.network },
    { header: 'CONFIRMATIONS', value: (t) => `${t.confirmations}/${t.confirmationsRequired}` },
    { header: 'CREATED', value: (t) => localTime(t.createdAt) },
  ]);
  const { pagination } = page;
  return `${rows}\n\nPage ${pagination.page} of ${pagination.totalPages} (${pagination.total} top-ups)`;
}

function renderTopUp(topUp: TopUp, context: CommandContext): string {
  return details(context.out, topUp);
}

function statusLine(topUp: TopUp): string {
  if (topUp.status === 'awaiting_payment') {
    return `Waiting for ${topUp.amountCrypto} ${topUp.coin} on ${topUp.network}…`;
  }
  if (topUp.status === 'verifying') {
    return `Payment seen: ${topUp.confirmations} of ${topUp.confirmationsRequired} confirmations…`;
  }
  return `Top-up ${topUp.id} is ${topUp.status}…`;
}

/**
 * Reads the top-up at the spec's cadence until it is final or `--timeout` ends. Exit code 0 once
 * credited, 1 when it closed without being credited, 3 when it is still open at the timeout.
 */
async function follow(context: CommandContext, first: TopUp): Promise<{ topUp: TopUp; code: ExitCode }> {
  const { out, clock } = context;
  const deadline = clock.now() + timeoutMs(context, WAIT_DEFAULT_SECONDS);
  let topUp = first;
  // A reader that went away (`| head`) has stopped listening: so do we.
  while (!topUp.final && !out.closed) {
    const interval = topUp.status === 'verifying' ? TOP_UP_POLL_MS.verifying : TOP_UP_POLL_MS.waiting;
    if (clock.now() + interval > deadline) {
      out.error(`Top-up ${topUp.id} is still ${topUp.status} when --timeout ends`);
      return { topUp, code: EXIT.pending };
    }
    out.progress(statusLine(topUp));
    await clock.sleep(interval);
    topUp = await context.call('topups:get', { topUpId: topUp.id });
  }
  out.clearProgress();
  if (!topUp.final || topUp.status === 'credited') return { topUp, code: EXIT.done };
  out.error(`Top-up ${topUp.id} ended ${topUp.status} without being credited`);
  return { topUp, code: EXIT.failed };
}

/** Quiet zone around the code, in modules (the QR standard asks for 4; 2 reads well on a screen). */
const QR_MARGIN = 2;

/**
 * A QR code in half blocks (two rows of modules per line), dark modules drawn. With colour, each line
 * is black on white (one escape pair per line, so a dark terminal shows it the right way round);
 * without (a pipe, `NO_COLOR`, `--no-color`) plain characters only. Drawn here rather than by
 * qrcode's `terminal` renderer, whose small mode garbles the last row and colours every cell.
 */
export async function qrLines(text: string, color: boolean): Promise<string[]> {
  const { default: QRCode } = await import('qrcode');
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size + QR_MARGIN * 2;
  const dark = (x: number, y: number): boolean => {
    const mx = x - QR_MARGIN;
    const my = y - QR_MARGIN;
    return mx >= 0 && my >= 0 && mx < modules.size && my < modules.size && modules.get(my, mx) === 1;
  };
  const lines: string[] = [];
  for (let y = 0; y < size; y += 2) {
    let line = '';
    for (let x = 0; x < size; x += 1) {
      const top = dark(x, y);
      const bottom = y + 1 < size && dark(x, y + 1);
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(color ? `\u001b[30;47m${line}\u001b[0m` : line);
  }
  return lines;
}

/** The address, the exact amount and the QR code of the payment URI, for a person at a terminal. */
async function paymentInstructions(topUp: TopUp, color: boolean): Promise<string> {
  const qr = (await qrLines(topUp.paymentUri, color)).join('\n');
  return [
    `Top-up ${topUp.id} of ${topUp.amountUsd} USD: send exactly`,
    '',
    `    ${topUp.amountCrypto} ${topUp.coin}   (network ${topUp.network})`,
    '',
    'to',
    '',
    `    ${topUp.address}`,
    '',
    `before ${localTime(topUp.expiresAt)}: the payment is matched by this exact amount.`,
    '',
    qr,
    `Payment URI: ${topUp.paymentUri}`,
  ].join('\n');
}

async function create(context: CommandContext, input: unknown): Promise<ExitCode> {
  const created = await context.call('topups:create', input);
  if (context.options.demo === true) {
    // On stderr, with --json too: nobody should pay a demo address.
    context.out.note(
      `Demo mode: a simulated top-up. Send nothing to this address; \`proxy-manager topups simulate ${created.id} --demo\` pays it.`,
    );
  }
  if (!context.json) context.out.out(await paymentInstructions(created, context.out.colorOn('stdout')));
  if (context.options.wait !== true) {
    if (context.json) context.out.json(created);
    return EXIT.done;
  }
  const { topUp, code } = await follow(context, created);
  if (context.json) context.out.json(topUp);
  else context.out.out(`\n${renderTopUp(topUp, context)}`);
  return code;
}

async function show(context: CommandContext, input: unknown): Promise<ExitCode> {
  const topUp = await context.call('topups:get', input);
  if (context.options.wait !== true) {
    await printValue(context, topUpsCommands.show, topUp);
    return EXIT.done;
  }
  const followed = await follow(context, topUp);
  await printValue(context, topUpsCommands.show, followed.topUp);
  return followed.code;
}

const topUpArg = {
  args: ['topUpId'],
  rename: { topUpId: 'top-up-id' },
  describe: { topUpId: 'the top-up’s id, from `topups list`' },
};

export const topUpsCommands = {
  list: {
    path: ['topups', 'list'],
    channel: 'topups:list',
    summary: 'List your crypto top-ups',
    examples: ['proxy-manager topups list --status awaiting_payment'],
    render: renderTopUps,
  },
  show: {
    path: ['topups', 'show'],
    channel: 'topups:get',
    summary: 'Show one top-up; with --wait, follow it until it is final',
    examples: ['proxy-manager topups show topup_1 --wait'],
    fields: topUpArg,
    extra: wait,
    run: show,
    render: renderTopUp,
  },
  create: {
    path: ['topups', 'create'],
    channel: 'topups:create',
    also: ['topups:get'],
    summary: 'Top up your balance in crypto: prints the address, the exact amount and a QR code',
    examples: [
      'proxy-manager topups create --amount 25.00 --coin USDT --network tron',
      'proxy-manager topups create --amount 50.00 --coin BTC --network bitcoin --wait',
    ],
    fields: {
      rename: { amountUsd: 'amount', 'purchase.planId': 'plan' },
      placeholder: { amountUsd: 'usd', coin: 'code', network: 'id', 'purchase.planId': 'plan-id' },
      describe: {
        amountUsd: 'USD, e.g. 25 or 25.00',
        coin: 'a coin code from `catalog coins`',
        network: 'one of the coin’s networks from `catalog coins`',
        'purchase.planId': 'buy this plan from the balance once the top-up is credited',
        'purchase.quantity': 'with --plan: how many',
        'purchase.promoCode': 'with --plan: a promo code',
      },
      defaults: { 'purchase.quantity': 1 },
      custom: {
        amountUsd: {
          help: 'USD, e.g. 25 or 25.00',
          placeholder: 'usd',
          // `25` and `25.5` are what a person types (the window takes them): cents are added here,
          // and anything else is left for the schema to refuse with its own message.
          parse: (text) => {
            const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
            return match ? `${match[1]}.${(match[2] ?? '').padEnd(2, '0')}` : text;
          },
        },
      },
      // One attempt per command: its Idempotency-Key is kept, so a retry never makes a second top-up.
      // Web Crypto, not `node:crypto`: loading that module would slow every start, help included.
      generate: { attemptId: () => globalThis.crypto.randomUUID() },
      hide: ['attemptId'],
    },
    extra: wait,
    run: create,
    render: renderTopUp,
  },
  declare: {
    path: ['topups', 'declare'],
    channel: 'topups:declareTxid',
    summary: 'Say you have sent the payment (optionally with its transaction id, to speed up the match)',
    examples: ['proxy-manager topups declare topup_1 --txid 0f1e…'],
    fields: topUpArg,
    render: renderTopUp,
  },
  simulate: {
    path: ['topups', 'simulate'],
    channel: 'topups:simulatePayment',
    summary: 'Demo mode only: send a simulated payment for a top-up',
    examples: ['proxy-manager topups simulate topup_1 --kind exact --demo'],
    fields: { ...topUpArg, defaults: { kind: 'exact' } },
    render: renderTopUp,
  },
} satisfies Record<string, CommandSpec>;
