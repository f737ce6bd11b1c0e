/**
 * `npx tsx bench/profile-summary.ts FILE.cpuprofile [--top 25] [--callers NAME]`: where a
 * `node --cpu-prof` profile (from `npm run bench -- --profile`) spent its time: self time per
 * function, the share of samples that were idle (waiting on I/O, timers or other processes),
 * and with --callers, which call chains spent the self time of the functions named NAME.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const program = new Command('profile-summary')
  .argument('<file>')
  .option('--top <n>', 'functions to list', '25')
  .option('--callers <name>', 'call chains (4 frames) leading to the self time of this function')
  .option('--by-file', 'self time per source file instead of per function')
  .parse();
const file = program.args[0] as string;
const opts = program.opts<{ top: string; callers?: string; byFile?: boolean }>();
const top = Number(opts.top);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

const totals = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  const where = frame.url ? `${frame.url.replace(/^.*\/work\/main\//, '').replace(/^file:\/\//, '')}:${frame.lineNumber + 1}` : '';
  const key = opts.byFile ? (where.replace(/:\d+$/, '') || frame.functionName || '(native)') : `${frame.functionName || '(anonymous)'} ${where}`.trim();
  totals.set(key, (totals.get(key) ?? 0) + us);
}
const wallUs = profile.endTime - profile.startTime;
const ms = (us: number): string => `${(us / 1000).toFixed(0)} ms`;
process.stdout.write(`${file}\nwall ${ms(wallUs)}; idle ${ms(totals.get('(idle)') ?? 0)}; GC ${ms(totals.get('(garbage collector)') ?? 0)}\n`);
for (const [key, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  process.stdout.write(`${ms(us).padStart(9)}  ${((100 * us) / wallUs).toFixed(1).padStart(5)}%  ${key}\n`);
}

if (opts.callers) {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number): string => {
    const f = byId.get(id)?.callFrame;
    return f ? `${f.functionName || '(anonymous)'}@${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}` : '?';
  };
  const chains = new Map<string, number>();
  for (const [id, us] of selfUs) {
    if (byId.get(id)?.callFrame.functionName !== opts.callers) continue;
    const frames: string[] = [];
    for (let at = parent.get(id); at !== undefined && frames.length < 4; at = parent.get(at)) frames.push(name(at));
    const key = frames.join(' < ');
    chains.set(key, (chains.get(key) ?? 0) + us);
  }
  process.stdout.write(`\ncallers of ${opts.callers}:\n`);
  for (const [key, us] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${ms(us).padStart(9)}  ${key}\n`);
}
