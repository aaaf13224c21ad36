import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEMO_KEY, type TestSandbox } from '@proxy-manager/sandbox/testing';
import type { Settings } from '../../../src-main/core/settings/settings-schema';
import { SettingsStore } from '../../../src-main/core/settings/settings-store';

const BIN = join(__dirname, '..', '..', '..', 'bin', 'proxy-manager.mjs');

export interface McpSession {
  client: Client;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * `proxy-manager mcp` as an agent's client starts it: a child process on stdio, driven by the MCP
 * SDK's own client, with the sandbox's key in the environment. No app runs on its data folder, so
 * the server keeps a core of its own; no keychain is reachable, so nothing there is read.
 */
export async function startMcp(
  sandbox: TestSandbox,
  options: { args?: string[]; env?: Record<string, string>; dataDir?: string } = {},
): Promise<McpSession> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'pm-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...(options.args ?? [])],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      PROXY_MANAGER_DATA_DIR: dataDir,
      PROXY_MANAGER_API_KEY: DEMO_KEY,
      PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      ...options.env,
    },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(transport);
  // The SDK's client checks each answer against its tool's output schema once it has listed them.
  await client.listTools();
  return { client, dataDir, close: () => client.close() };
}

/** A data folder whose settings the server reads when it starts (what the window would have saved). */
export async function dataDirWith(edit: (draft: Settings) => void): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-mcp-'));
  const settings = await SettingsStore.open({ dataDir });
  await settings.update(edit);
  return dataDir;
}
