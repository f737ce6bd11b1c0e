/** A real pino logger whose lines are kept, so a test reads what the engine said and at which level. */
import pino from 'pino';
import type { Logger } from '../../main/logging.js';

export interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

/** pino's numeric levels. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

export function keptLogger(level = 'info'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

/** The lines whose message starts with `prefix`. */
export const linesStarting = (lines: readonly LogLine[], prefix: string): LogLine[] =>
  lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith(prefix));
