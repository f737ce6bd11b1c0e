/**
 * Structured logs (pino): JSON lines to a file that rotates, never holding a token or secret.
 * Redaction covers every field name that could carry one, however deep.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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
 * pino-roll, which writes the rotating file: built, bundled into `log-roll.js` beside this module
 * with the few date functions it uses (the package's own `date-fns` import loads the whole
 * library); run from the TypeScript sources, the package itself.
 */
const ROLLING_FILE_MODULE = import.meta.url.endsWith('.ts') ? 'pino-roll' : new URL('./log-roll.js', import.meta.url).href;

interface RollOptions {
  file: string;
  frequency: string;
  size: string;
  limit: { count: number };
  mkdir: boolean;
}

/** The part of pino-roll's stream (a SonicBoom) the log uses. */
interface RollingStream {
  write(data: string): boolean;
  flushSync(): void;
  end(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'close', listener: () => void): unknown;
}

/** The log files open in this process: what they buffered is written out when it exits. */
const openFiles = new Set<RollingFile>();
let flushesAtExit = false;

/**
 * The rotating log file, written from this thread. pino's transports run the writer in a worker
 * thread of its own: a V8 isolate of about 10 MiB and a tenth of a second of CPU at every start,
 * for a log that writes a few lines per cycle. Writes are asynchronous (SonicBoom) all the same:
 * logging never waits for the disk. pino-roll opens the file asynchronously; lines logged
 * meanwhile are held and written first.
 */
class RollingFile {
  private stream: RollingStream | null = null;
  private held: string[] = [];
  /** The file could not be opened or written: lines are dropped, said once on stderr. */
  private broken = false;
  private readonly opened: Promise<void>;

  constructor(options: RollOptions) {
    this.opened = import(ROLLING_FILE_MODULE)
      .then(async (module: { default: (options: RollOptions) => Promise<RollingStream> }) => module.default(options))
      .then(
        (stream) => {
          this.stream = stream;
          stream.on('error', (error) => this.fail(error));
          if (this.held.length > 0) stream.write(this.held.join(''));
          this.held = [];
        },
        (error: unknown) => this.fail(error),
      );
    openFiles.add(this);
    if (!flushesAtExit) {
      flushesAtExit = true;
      process.once('exit', () => {
        for (const file of openFiles) file.flushSync();
      });
    }
  }

  write(line: string): boolean {
    if (this.broken) return true;
    if (this.stream === null) {
      this.held.push(line);
      return true;
    }
    return this.stream.write(line);
  }

  flushSync(): void {
    try {
      this.stream?.flushSync();
    } catch {
      // At exit, with nothing left to tell it to: what could not be written is lost.
    }
  }

  /** Writes out what is held and closes the file. */
  async end(): Promise<void> {
    openFiles.delete(this);
    await this.opened;
    const stream = this.stream;
    if (stream === null || this.broken) return;
    await new Promise<void>((resolve) => {
      stream.once('close', resolve);
      stream.on('error', () => resolve());
      stream.end();
    });
  }

  private fail(error: unknown): void {
    if (this.broken) return;
    this.broken = true;
    this.held = [];
    process.stderr.write(`asset-sync: the log file could not be written: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

export function createLogger(options: LogOptions = {}): Logger {
  const level = options.level ?? process.env.ASSET_SYNC_LOG_LEVEL ?? 'info';
  const streams: pino.StreamEntry[] = [];
  let file: RollingFile | undefined;
  if (options.file) {
    mkdirSync(dirname(options.file), { recursive: true });
    file = new RollingFile({ file: options.file, frequency: 'daily', size: '10m', limit: { count: 7 }, mkdir: true });
    streams.push({ level: level as pino.Level, stream: file });
  }
  if (options.stderr) streams.push({ level: level as pino.Level, stream: pino.destination({ dest: 2, sync: true }) });
  const redact = { paths: REDACTED_PATHS, censor: '[redacted]' };
  if (streams.length === 0) return pino({ level: 'silent', redact });
  const logger = pino({ level, redact }, streams.length === 1 && file ? file : pino.multistream(streams));
  if (file) files.set(logger, file);
  return logger;
}

const files = new WeakMap<Logger, RollingFile>();

/**
 * Writes out what is buffered and closes the log file. A session that closes must call it: the
 * app opens a new session (and logger) at each sign-in or settings change, and every file left
 * open kept a second writer rotating the same file.
 */
export async function closeLogger(logger: Logger): Promise<void> {
  const file = files.get(logger);
  if (file === undefined) return;
  files.delete(logger);
  // A line logged after this (by a child logger, late) is dropped.
  logger.level = 'silent';
  await file.end();
}
