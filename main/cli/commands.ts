/**
 * The commands, their options and help. Each command imports its module only when it runs:
 * `asset-sync --help` then loads commander and this file, not the engine, the index or the
 * keychain (150 ms and 60 MiB at most; the whole program took 0.6 s and 116 MiB to print help).
 * Nothing here may import more than commander and types.
 */
import { Option, type Command } from 'commander';
import type { GlobalOptions, Run, ServiceOptions } from './options.js';
import type { LoginOptions } from './login.js';
import type { ResolveOptions } from './resolve.js';
import type { RestoreOptions } from './restore.js';
import type { SaveOptions } from './save-version.js';
import type { SyncOptions } from './sync.js';
import type { FileOptions, VersionsOptions } from './versions.js';
import type { AddOptions, ListOptions } from './workspaces.js';

export function addServiceOptions(command: Command): Command {
  return command
    .option('--base-url <url>', 'service URL, e.g. https://api.example.com (default: from the config file)')
    .option('--account <id>', 'account id (default: from the config file)');
}

export function addRootOption(command: Command): Command {
  return command.option('--root <dir>', 'the sync folder holding one folder per workspace (default: from the config file)');
}

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function repeatable(flags: string, description: string): Option {
  return new Option(flags, description).argParser(collect);
}

const globalsOf = (command: Command): GlobalOptions => command.optsWithGlobals<GlobalOptions>();

export function registerCommands(program: Command, run: Run): void {
  addServiceOptions(program.command('login'))
    .description('check an API key with the service and store it in the OS keychain')
    .option('--key <key>', 'API key id (default: asked, or ASSET_SYNC_API_KEY)')
    .option('--secret <secret>', 'API secret (default: asked without echo, or ASSET_SYNC_API_SECRET); prefer the prompt: options show in the process list')
    .action((options: LoginOptions, command: Command) => run(async () => (await import('./login.js')).login(options, globalsOf(command))));

  const workspaces = addServiceOptions(program.command('workspaces'))
    .description("list the account's workspaces, marking those this device syncs")
    .option('--json', 'print JSON')
    .action((options: ListOptions, command: Command) => run(async () => (await import('./workspaces.js')).listWorkspaces(options, globalsOf(command))));
  addServiceOptions(workspaces.command('add <id>'))
    .description('sync this workspace (edits the config file); the service is asked whether the account has it')
    .option('--folder <name>', "folder name under the sync folder (default: the workspace's name)")
    .addOption(repeatable('--exclude <path>', 'a remote folder not to sync here (repeatable)'))
    .option('--root <dir>', 'also set the sync folder')
    .action((id: string, _options: AddOptions, command: Command) => run(async () => (await import('./workspaces.js')).addWorkspace(id, command.optsWithGlobals<AddOptions>())));
  workspaces
    .command('remove <id>')
    .description('stop syncing this workspace (its local folder is kept; adding it again starts afresh)')
    .action((id: string) => run(async () => (await import('./workspaces.js')).removeWorkspace(id)));
  addRootOption(workspaces.command('reset <id>'))
    .description('forget what was synced of this workspace: the next sync merges its folder with the service by content and deletes nothing')
    .action((id: string, options: { root?: string }) => run(async () => (await import('./workspaces.js')).resetWorkspace(id, options)));

  addRootOption(addServiceOptions(program.command('sync')))
    .description('sync the workspaces: once (--once) or watching until Ctrl+C')
    .option('--once', 'sync until nothing is left to do, then exit (0: in sync, 1: problems remain)')
    .option('--allow-mass-delete', 'carry out deletions even when they look like an accident (many files at once)')
    .addOption(repeatable('--workspace <id>', 'workspace to sync, instead of those in the config file (repeatable)'))
    .addOption(repeatable('--exclude <path>', 'a remote folder not to sync on this device (repeatable)'))
    .option('--poll <seconds>', 'how often to ask the service for changes while watching')
    .option('--bandwidth-limit <rate>', 'bytes per second for all transfers, e.g. 500K or 10M ("off": unlimited)')
    .option('--ui [port]', 'also serve the app to a browser on this machine, on 127.0.0.1 (any free port unless given); prints its address')
    .action((options: SyncOptions, command: Command) => run(async () => (await import('./sync.js')).sync(options, globalsOf(command))));

  addRootOption(program.command('status'))
    .description('show the state of the last sync, without syncing')
    .option('--json', 'print one JSON object')
    .action((options: { root?: string; json?: boolean }) => run(async () => (await import('./status.js')).status(options)));

  addRootOption(addServiceOptions(program.command('versions <file>')))
    .description('list the versions of a synced file, or write the note of one of yours (--note)')
    .option('--json', 'print JSON')
    .option('--note <text>', 'write this note on one of your versions ("" clears it)')
    .option('--version <n>', 'with --note: the version to write it on (default: the one this file holds)')
    .action((file: string, options: VersionsOptions, command: Command) =>
      run(async () => {
        const { noteVersion, versions } = await import('./versions.js');
        return options.note === undefined ? versions(file, options, globalsOf(command)) : noteVersion(file, options.note, options, globalsOf(command));
      }),
    );

  addRootOption(addServiceOptions(program.command('restore <file>')))
    .description('make an earlier version current again (as a new version; history is kept)')
    .requiredOption('--version <n>', 'the version number to restore (see `asset-sync versions FILE`)')
    .option('--note <text>', 'the new version’s note (default: "Restored from version N")')
    .action((file: string, options: RestoreOptions, command: Command) => run(async () => (await import('./restore.js')).restore(file, options, globalsOf(command))));

  addRootOption(addServiceOptions(program.command('save-version <file>')))
    .description('save a copy of one version of a synced file (--version, --to), or your changes as a new version with a note (--note)')
    .option('--version <n>', 'the version number to copy (see `asset-sync versions FILE`)')
    .option('--to <path>', 'where to write the copy (a folder: the file keeps its name)')
    .option('--force', 'replace the file at --to if there is one')
    .option('--note <text>', 'save your changes to the file now, as a new version with this note')
    .action((file: string, options: SaveOptions, command: Command) => run(async () => (await import('./save-version.js')).save(file, options, globalsOf(command))));

  addRootOption(addServiceOptions(program.command('reviews')))
    .description('list review requests and change requests for you; those not yet read in the app are marked (new)')
    .option('--json', 'print JSON')
    .action((options: ServiceOptions & { json?: boolean; root?: string }, command: Command) => run(async () => (await import('./reviews.js')).reviews(options, globalsOf(command))));

  addRootOption(addServiceOptions(program.command('resolve <file>')))
    .description('resolve a conflict: keep your version (the conflicted copy), theirs (the file), or both')
    .addOption(new Option('--keep <side>', 'mine: your copy becomes the new version; theirs: your copy goes to the trash; both: keep the two files').choices(['mine', 'theirs', 'both']).makeOptionMandatory())
    .action((file: string, options: ResolveOptions, command: Command) => run(async () => (await import('./resolve.js')).resolve(file, options, globalsOf(command))));

  for (const locked of [true, false]) {
    addRootOption(addServiceOptions(program.command(`${locked ? 'lock' : 'unlock'} <file>`)))
      .description(locked ? 'lock a synced file while you edit it: it is read-only for everyone else until you unlock it' : 'release your lock on a synced file')
      .action((file: string, options: FileOptions, command: Command) => run(async () => (await import('./locks.js')).setLock(file, locked, options, globalsOf(command))));
  }
}
