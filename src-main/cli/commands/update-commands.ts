import type { UpdateStatus } from '../../../src-shared/contract';
import { type CommandContext, type CommandSpec, EXIT, type ExitCode, printValue } from '../command-spec';

function renderCheck(status: UpdateStatus): string {
  if (status.problem) return `Not believed: ${status.problem.message}`;
  if (status.available) {
    const { version, releasedAt, notes } = status.available;
    return [
      `Update available: ${version} (released ${releasedAt}; this is ${status.currentVersion}).`,
      notes.trim(),
      'Get it with: proxy-manager update download',
    ]
      .filter(Boolean)
      .join('\n');
  }
  if (status.heldBack) {
    const share = Math.round(status.heldBack.rollout * 100);
    return `${status.heldBack.version} is being rolled out to ${share}% of installations; this one is not among them yet.`;
  }
  return `Proxy Manager ${status.currentVersion} is up to date.`;
}

function renderDownload(status: UpdateStatus): string {
  const ready = status.ready;
  if (!ready) return renderCheck(status);
  if (ready.kind === 'restart') {
    return `Downloaded and verified ${ready.version}; the AppImage was replaced. Restart Proxy Manager to use it.`;
  }
  return [
    `Downloaded and verified ${ready.version}: ${ready.path}`,
    ready.command ? `Install it with: ${ready.command}` : 'Open it to install.',
  ].join('\n');
}

/** `update check`: exit 1 when the feed was not believed (a refusal is never "up to date"). */
async function runCheck(context: CommandContext): Promise<ExitCode> {
  context.out.progress('Checking the signed update feed…');
  const status = await context.call('updates:check', undefined);
  context.out.clearProgress();
  await printValue(context, updateCommands.check, status);
  if (!status.problem) return EXIT.done;
  if (context.json) context.out.error(status.problem.message);
  return EXIT.failed;
}

async function runDownload(context: CommandContext): Promise<ExitCode> {
  context.out.progress('Downloading and verifying the update…');
  const status = await context.call('updates:download', undefined);
  context.out.clearProgress();
  await printValue(context, updateCommands.download, status);
  return EXIT.done;
}

export const updateCommands = {
  check: {
    path: ['update', 'check'],
    channel: 'updates:check',
    summary: 'Ask the signed update feed whether a newer release is offered (and show its notes)',
    examples: ['proxy-manager update check', 'proxy-manager update check --json'],
    run: runCheck,
    render: renderCheck,
  },
  download: {
    path: ['update', 'download'],
    channel: 'updates:download',
    summary:
      'Download the offered release and verify its size and sha256 against the signed feed; an AppImage is replaced in place, an installer is saved and its install command shown',
    examples: ['proxy-manager update download', 'proxy-manager update download --json'],
    run: runDownload,
    render: renderDownload,
  },
} satisfies Record<string, CommandSpec>;
