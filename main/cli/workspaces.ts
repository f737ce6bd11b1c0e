/** `asset-sync workspaces`: the account's workspaces, and which of them this device syncs. */
import { existsSync } from 'node:fs';
import { connect, CredentialsError } from '../bootstrap.js';
import { indexPathFor, saveConfig, type Config } from '../config.js';
import { forgetSyncedState } from '../engine/workspace-sync.js';
import { openIndex } from '../index/sync-index.js';
import { checkSyncRoot } from '../root-check.js';
import { lockRoot } from '../root-lock.js';
import { KeychainUnavailableError } from '../secrets/secret-store.js';
import { isServiceError, type UnreadableItem } from '../service-client/index.js';
import { EXIT_OK, UsageError } from './outcomes.js';
import { normalizeExcluded, readConfig, resolveRoot, resolveService, type GlobalOptions, type ServiceOptions } from './options.js';
import { formatTable, print, printError, printJson, skippedLine } from './output.js';

export interface ListOptions extends ServiceOptions {
  json?: boolean;
}

export interface AddOptions extends ServiceOptions, GlobalOptions {
  folder?: string;
  exclude?: string[];
  root?: string;
}

export async function listWorkspaces(options: ListOptions, globals: GlobalOptions): Promise<number> {
  const config = readConfig();
  const service = resolveService(options, config);
  const skipped: UnreadableItem[] = [];
  const connection = await connect({ ...service, logToStderr: globals.verbose, onUnreadable: (item) => skipped.push(item) });
  try {
    const list = await connection.client.listWorkspaces();
    for (const item of skipped) printError(skippedLine(item));
    const synced = new Map(config.workspaces.map((w) => [w.id, w]));
    const rows = list.map((w) => ({ id: w.id, name: w.name, synced: synced.has(w.id), folder: synced.get(w.id)?.folder ?? null, excluded: synced.get(w.id)?.excluded ?? [] }));
    if (options.json) {
      printJson(rows);
      return EXIT_OK;
    }
    if (rows.length === 0) {
      print('This account has no workspaces.');
      return EXIT_OK;
    }
    for (const line of formatTable([['', 'name', 'id'], ...rows.map((r) => [r.synced ? '*' : ' ', r.name, r.id])])) print(line);
    print();
    print(rows.some((r) => r.synced) ? '* synced on this device' : 'None is synced yet: `asset-sync workspaces add <id>` picks one.');
    return EXIT_OK;
  } finally {
    await connection.close();
  }
}

export async function addWorkspace(id: string, options: AddOptions): Promise<number> {
  const config = readConfig();
  const excluded = (options.exclude ?? []).map(normalizeExcluded);
  const existing = config.workspaces.find((w) => w.id === id);
  // The new root replaces the config file's: that one is no longer synced, so it may hold it.
  const root = options.root ? checkSyncRoot(options.root, { replacing: [config.root] }) : undefined;
  const found = await lookUpWorkspace(id, options, config);
  const next: Config = {
    ...config,
    ...(root ? { root } : {}),
    workspaces: existing
      ? config.workspaces.map((w) => (w.id === id ? { ...w, ...(options.folder ? { folder: options.folder } : {}), excluded: [...new Set([...w.excluded, ...excluded])] } : w))
      : [...config.workspaces, { id, ...(options.folder ? { folder: options.folder } : {}), excluded }],
  };
  saveConfig(next);
  print(`${existing ? 'Updated' : 'Added'} workspace ${'name' in found ? `${found.name} (${id})` : id}.`);
  if ('unchecked' in found) {
    printError(`asset-sync: warning: workspace ${id} was not checked, because ${found.unchecked}. If the account has no such workspace, \`asset-sync sync\` will say so.`);
  }
  print(next.root ? `\`asset-sync sync\` syncs it into ${next.root}.` : 'Set the sync folder with `--root DIR` (here or on `asset-sync sync`).');
  return EXIT_OK;
}

/** How long `workspaces add` waits for the service before adding the workspace unchecked. */
const LOOKUP_TIMEOUT_MS = 15_000;

/**
 * The workspace `id` among those the account can sync: its name, or why it could not be checked
 * (no service or key set up, or the service out of reach). An id the account does not have is
 * refused, naming the ids it has: a typo only showed at the next sync, after the config was saved.
 */
async function lookUpWorkspace(id: string, options: AddOptions, config: Config): Promise<{ name: string } | { unchecked: string }> {
  const baseUrl = options.baseUrl ?? config.baseUrl;
  const accountId = options.account ?? config.accountId;
  if (!baseUrl || !accountId) return { unchecked: 'no service or account is set (`asset-sync login` sets them, or pass --base-url and --account)' };
  let connection;
  try {
    connection = await connect({ ...resolveService({ baseUrl, account: accountId }, config), logToStderr: options.verbose });
  } catch (error) {
    if (error instanceof CredentialsError || error instanceof KeychainUnavailableError) return { unchecked: 'this computer has no API key for the account (`asset-sync login` stores one)' };
    throw error;
  }
  try {
    const list = await connection.client.listWorkspaces({ signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) }).catch((error: unknown) => {
      if (isServiceError(error) && (error.transient || error.kind === 'aborted')) return error;
      throw error;
    });
    if (!Array.isArray(list)) return { unchecked: `the service could not be reached (${list.message})` };
    const found = list.find((w) => w.id === id);
    if (found) return { name: found.name };
    const theirs = list.map((w) => `${w.name} (${w.id})`).join(', ');
    throw new UsageError(
      `The account has no workspace ${id} that you can sync. ${list.length > 0 ? `Its workspaces: ${theirs}.` : 'It has none you are a member of.'} ` +
        '`asset-sync workspaces` lists them.',
    );
  } finally {
    await connection.close();
  }
}

export async function removeWorkspace(id: string): Promise<number> {
  const config = readConfig();
  if (!config.workspaces.some((w) => w.id === id)) throw new UsageError(`Workspace ${id} is not synced here; \`asset-sync workspaces\` lists them.`);
  saveConfig({ ...config, workspaces: config.workspaces.filter((w) => w.id !== id) });
  // What was synced is forgotten too: a workspace added again merges its folder by content
  // instead of comparing it with a base that may describe another folder.
  if (config.root) await forgetWorkspace(config.root, id);
  print(`Stopped syncing workspace ${id}. Its local folder was left as it is.`);
  return EXIT_OK;
}

export async function resetWorkspace(id: string, options: { root?: string }): Promise<number> {
  const root = checkSyncRoot(resolveRoot(options.root, readConfig()));
  if (!(await forgetWorkspace(root, id))) {
    print(`Nothing was synced of workspace ${id} into ${root}: the next sync starts afresh anyway.`);
    return EXIT_OK;
  }
  print(`Forgot what this device had synced of workspace ${id} into ${root}. No file was touched.`);
  print('The next `asset-sync sync` merges the folder with the service by content: files on one side only are copied');
  print('to the other, files that differ are both kept (one as a conflicted copy), and nothing is deleted on either side.');
  return EXIT_OK;
}

/** Forgets the workspace's synced state in the index of `root`; false when it had none. Not while a sync runs there. */
async function forgetWorkspace(root: string, id: string): Promise<boolean> {
  const indexPath = indexPathFor(root);
  if (!existsSync(indexPath)) return false;
  const lock = await lockRoot(root, indexPath);
  try {
    const index = openIndex(indexPath);
    try {
      return forgetSyncedState(index, id);
    } finally {
      index.close();
    }
  } finally {
    await lock.release();
  }
}
