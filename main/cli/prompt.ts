/** Asking on the terminal (node:readline); a hidden answer is never echoed. */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/** Asks `question` on stderr (stdout stays for results) and returns the trimmed answer. */
export function ask(question: string, options: { hidden?: boolean } = {}): Promise<string> {
  let muted = false;
  // While muted, what the user types goes nowhere; the question itself is written before.
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (!muted) process.stderr.write(chunk);
      callback();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise<string>((resolve, reject) => {
    rl.on('SIGINT', () => {
      rl.close();
      process.stderr.write('\n');
      reject(new Error('Cancelled.'));
    });
    rl.question(question, (answer) => {
      rl.close();
      if (options.hidden) process.stderr.write('\n');
      resolve(answer.trim());
    });
    muted = options.hidden ?? false;
  });
}
