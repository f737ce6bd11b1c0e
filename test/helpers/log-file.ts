/** The app's log file (main/logging.ts), read back the way a user or support reads it. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { closeLogger, createLogger, type Logger } from '../../main/logging.js';

/** The lines of every log file in `logs` (pino-roll numbers them: asset-sync.1.log, …). */
export async function logLines(logs: string): Promise<string[]> {
  const files = (await readdir(logs)).sort();
  const texts = await Promise.all(files.map((f) => readFile(path.join(logs, f), 'utf8')));
  return texts.join('').split('\n').filter(Boolean);
}

export interface LogFile {
  logger: Logger;
  /** Closes the file, as the app does when it quits, and answers what it holds, one record a line. */
  read(): Promise<Array<Record<string, unknown>>>;
}

/** A log file in the folder `logs`, written as the app writes its own. */
export function openLogFile(logs: string): LogFile {
  const logger = createLogger({ file: path.join(logs, 'asset-sync.log') });
  return {
    logger,
    async read() {
      await closeLogger(logger);
      return (await logLines(logs)).map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}
