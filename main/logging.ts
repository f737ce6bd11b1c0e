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

export function createLogger(options: LogOptions = {}): Logger {
  const level = options.level ?? process.env.ASSET_SYNC_LOG_LEVEL ?? 'info';
  const targets: pino.TransportTargetOptions[] = [];
  if (options.file) {
    mkdirSync(dirname(options.file), { recursive: true });
    targets.push({ target: 'pino-roll', level, options: { file: options.file, frequency: 'daily', size: '10m', limit: { count: 7 }, mkdir: true } });
  }
  if (options.stderr) targets.push({ target: 'pino/file', level, options: { destination: 2 } });
  const redact = { paths: REDACTED_PATHS, censor: '[redacted]' };
  if (targets.length === 0) return pino({ level: 'silent', redact });
  return pino({ level, redact }, pino.transport({ targets }));
}
