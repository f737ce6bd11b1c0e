/**
 * The `asset-sync` command line: the commands are declared in commands.ts, each in its own module. Every failure ends as a
 * message saying what to do and an exit code (0 fine, 1 problems remain, 2 usage or config),
 * with a stack trace only under --verbose.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands.js';
import { EXIT_USAGE } from './outcomes.js';
import type { GlobalOptions, Run } from './options.js';
import { printError, stdoutGone } from './output.js';

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export function buildProgram(run: Run): Command {
  const program = new Command('asset-sync')
    .description('Sync folders with the Asset Collaboration Service.')
    // -V only: `--version <n>` belongs to restore and save-version.
    .version(packageVersion(), '-V', 'print the version of asset-sync (--version is the option of restore and save-version)')
    .option('--verbose', 'log to stderr too, and show stack traces of errors')
    .exitOverride()
    .showHelpAfterError('(`asset-sync --help` lists the commands)')
    .addHelpText(
      'after',
      [
        '',
        'Credentials: `asset-sync login` stores an API key in the OS keychain; ASSET_SYNC_API_KEY and',
        'ASSET_SYNC_API_SECRET in the environment take precedence (bare machines, scripts).',
        'State: ASSET_SYNC_HOME relocates the config file, index and logs.',
        '',
        'Example (no config file, no keychain):',
        '  ASSET_SYNC_API_KEY=… ASSET_SYNC_API_SECRET=… asset-sync sync --once \\',
        '    --base-url https://api.example.com --account ACCOUNT --workspace WORKSPACE --root ~/AssetSync',
      ].join('\n'),
    );
  registerCommands(program, run);
  return program;
}

/** Runs the command line; resolves to the exit code. */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  // `asset-sync sync --once | head -1`: a reader that leaves early is not an error, and it must
  // not stop a sync halfway either (exiting here left the rest unsynced, with exit code 0).
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return stdoutGone();
    throw error;
  });
  let exitCode = 0;
  let program: Command | null = null;
  const run: Run = async (task) => {
    try {
      exitCode = await task();
    } catch (error) {
      // Loaded only now: it knows every error the engine, keychain and client may throw.
      const { describeError } = await import('./error-report.js');
      const described = describeError(error);
      printError(`asset-sync: ${described.message}`);
      if (program?.opts<GlobalOptions>().verbose && error instanceof Error && error.stack) printError(error.stack);
      exitCode = described.exitCode;
    }
  };
  program = buildProgram(run);
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // Commander printed the message already; help and version are not errors.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  return exitCode;
}
