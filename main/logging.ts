/**
 * Structured logs (pino): JSON lines to a file that rotates, never holding a token or secret.
 * Redaction covers every field name that could carry one, however deep.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

export const REDACTED_PATHS = [
  'token', '*.token', 'secret', '*.secret', 'apiSecret', '*.apiSecret', 'key', '*.key', 'apiKey', '*.apiKey',
  'authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'password', '*.password',
  'signed_url', '*.signed_url', 'url', '*.url',
];

export interface LogOptions {
  /** Log file; rotated daily and at 10 MB, 7 files kept. Absent: no file. */
  file?: string | undefined;
  level?: string | undefined;
  /** Also write to stderr (for `--verbose`). */
  stderr?: boolean | undefined;
}

/**
 * The module pino's worker thread loads to write the rotating file: built, pino-roll bundled into
 * `log-roll.js` beside this module with the few date functions it uses (the package's own
 * `date-fns` import loads the whole library, most of the worker's start-up); run from the
 * TypeScript sources, the package itself.
 */
const ROLLING_FILE_TARGET = import.meta.url.endsWith('.ts') ? 'pino-roll' : fileURLToPath(new URL('./log-roll.js', import.meta.url));

export function createLogger(options: LogOptions = {}): Logger {
  const level = options.level ?? process.env.ASSET_SYNC_LOG_LEVEL ?? 'info';
  const targets: pino.TransportTargetOptions[] = [];
  if (options.file) {
    mkdirSync(dirname(options.file), { recursive: true });
    targets.push({ target: ROLLING_FILE_TARGET, level, options: { file: options.file, frequency: 'daily', size: '10m', limit: { count: 7 }, mkdir: true } });
  }
  if (options.stderr) targets.push({ target: 'pino/file', level, options: { destination: 2 } });
  const redact = { paths: REDACTED_PATHS, censor: '[redacted]' };
  if (targets.length === 0) return pino({ level: 'silent', redact });
  const transport = pino.transport({ targets });
  const logger = pino({ level, redact }, transport);
  transports.set(logger, transport);
  return logger;
}

/** The worker-thread stream `pino.transport` returns: ending it lets the worker exit. */
type TransportStream = ReturnType<typeof pino.transport>;

const transports = new WeakMap<Logger, TransportStream>();

/**
 * Writes out what is buffered and ends the logger's transport, so its worker thread exits and
 * lets go of the log file. A session that closes must call it: the app opens a new session (and
 * logger) at each sign-in or settings change, and every transport left running kept a thread
 * and a second writer rotating the same file.
 */
export function closeLogger(logger: Logger): Promise<void> {
  const transport = transports.get(logger);
  if (transport === undefined) return Promise.resolve();
  transports.delete(logger);
  // A line logged after this (by a child logger, late) is dropped: the ended stream would report
  // it as an 'error' event, and an unheard one would stop the process.
  logger.level = 'silent';
  transport.on('error', () => undefined);
  return new Promise((resolve) => {
    // 'finish' comes once the worker has written everything and closed the file; the worker
    // exits on its own after that ('close'), and may not before the process does.
    transport.once('finish', resolve);
    transport.once('close', resolve);
    transport.end();
  });
}
