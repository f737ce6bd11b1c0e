/**
 * How soon a colleague's work reaches a user who has Asset Sync open, through the real command
 * line and the real service: `asset-sync sync --ui` with a page subscribed to its event stream
 * polls the changes feed every few seconds, whatever the configured interval (an hour here: a
 * version that arrives within the test arrived before that poll would have fired). Without the
 * feed, `asset-sync status` says that changes arrive slower.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineStatus, ReviewNotification } from '../../shared/engine.js';
import { bytesFor, faults, RemoteActor, serviceClient, sha256 } from '../helpers/engine.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { CLI, REPO, runCli } from './cli-helpers.js';

/** Longer than any test here runs: only the fast cadence can bring a change in time. */
const CONFIGURED_POLL_SECONDS = '3600';
const WAIT = { timeout: 60_000, interval: 200 };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  svc: TestService;
  home: string;
  root: string;
  env: Record<string, string>;
  args: string[];
  colleague: RemoteActor;
}

async function setUp(options: Parameters<typeof startTestService>[0] = {}): Promise<Setup> {
  const svc = await startTestService(options);
  const home = await mkdtemp(join(tmpdir(), 'cli-changes-'));
  cleanups.push(async () => {
    await svc.stop();
    await rm(home, { recursive: true, force: true });
  });
  const { demo } = svc;
  const root = join(home, 'Assets');
  const env = { ASSET_SYNC_HOME: join(home, 'state'), ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  const args = ['--base-url', svc.service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root];
  const client = serviceClient(svc.service, demo.accountId, { key: demo.colleague.apiKey, secret: demo.colleague.apiSecret });
  cleanups.push(() => client.close());
  return { svc, home, root, env, args, colleague: new RemoteActor(client, demo.workspaceId) };
}

/** A long-running `asset-sync sync …`; stopped (SIGTERM) after the test. Resolves with what it printed so far as lines arrive. */
function startSync(s: Setup, extra: string[]): { child: ChildProcess; lines: string[]; output: () => string } {
  const child = spawn(process.execPath, [CLI, 'sync', ...s.args, '--poll', CONFIGURED_POLL_SECONDS, ...extra], {
    cwd: REPO,
    env: { ...process.env, ...s.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let errors = '';
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  });
  return { child, lines, output: () => `${lines.join('\n')}\n${errors}` };
}

/** The web UI's event stream, as the page opens it: the statuses and review notices it carries, newest last. */
async function subscribe(url: URL): Promise<{ statuses: EngineStatus[]; reviews: ReviewNotification[] }> {
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const stop = new AbortController();
  const res = await fetch(new URL('/api/events', url), { headers: { authorization: `Bearer ${token}` }, signal: stop.signal });
  expect(res.status).toBe(200);
  const statuses: EngineStatus[] = [];
  const reviews: ReviewNotification[] = [];
  const events = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  void (async () => {
    for await (const event of events) {
      if (event.event === 'status') statuses.push((JSON.parse(event.data) as [EngineStatus])[0]);
      if (event.event === 'review') reviews.push((JSON.parse(event.data) as [ReviewNotification])[0]);
    }
  })().catch(() => undefined);
  cleanups.push(async () => stop.abort());
  return { statuses, reviews };
}

describe('changes from the service while Asset Sync is open', () => {
  it('a colleague’s new version is in place, and their review request shown, long before the configured poll, while the web UI is open', async () => {
    const s = await setUp();
    // Mirrored first: the daemon below starts with nothing to transfer, so only the open page
    // can make it poll faster than the configured hour.
    const first = await runCli(['sync', '--once', ...s.args], { env: s.env });
    expect(first.code, first.stdout + first.stderr).toBe(0);

    const daemon = startSync(s, ['--ui', '0']);
    const url = await vi.waitFor(() => {
      const printed = daemon.lines.map((l) => l.trim()).find((l) => /^http:\/\/127\.0\.0\.1:\d+\/#token=/.test(l));
      if (!printed) throw new Error(`no address printed yet:\n${daemon.output()}`);
      return new URL(printed);
    }, WAIT);
    const { statuses, reviews } = await subscribe(url);
    // The start-up cycle is over: what comes next can only come from a poll.
    await vi.waitFor(() => {
      const last = statuses.at(-1);
      expect(last?.state).toBe('up-to-date');
      expect(last?.workspaces[0]?.lastSyncAt).not.toBeNull();
    }, WAIT);
    const folder = statuses.at(-1)?.workspaces[0]?.folder ?? '';

    const budget = await s.colleague.assetAt('Docs/budget.xlsx');
    const theirs = bytesFor('a colleague’s budget, 1 MiB', 1024 * 1024);
    await s.colleague.newVersion(budget.assetId, theirs);
    await vi.waitFor(async () => {
      expect(sha256(await readFile(join(folder, 'Docs', 'budget.xlsx')))).toBe(sha256(theirs));
    }, WAIT);

    // The page (and the desktop notification) hears of a review request as it is made.
    const asked = await s.svc.colleague.api('POST', `/workspaces/assets/${budget.assetId}/reviewRequests/${s.svc.user.userId}`, { body: { message: 'Numbers OK?' } });
    expect(asked.status).toBe(201);
    await vi.waitFor(() => expect(reviews.map((r) => [r.kind, r.assetId, r.message])).toContainEqual(['review_request', budget.assetId, 'Numbers OK?']), WAIT);
  }, 120_000);

  it('without the changes feed, `status` says that changes arrive slower, and nothing is wrong', async () => {
    const s = await setUp({ service: { faults: faults({ routes: [{ method: 'GET', path: '/workspaces/changes', answer: 404 }] }) } });
    const first = await runCli(['sync', '--once', ...s.args], { env: s.env });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const before = await runCli(['status', '--root', s.root], { env: s.env });
    expect(before.stdout).not.toMatch(/slower/);

    const daemon = startSync(s, []);
    await vi.waitFor(async () => {
      const status = await runCli(['status', '--root', s.root], { env: s.env });
      expect(status.stdout, daemon.output()).toMatch(/changes made elsewhere arrive slower/);
      expect(status.stdout).toMatch(/^State: up to date$/m);
    }, WAIT);
    const json = JSON.parse((await runCli(['status', '--root', s.root, '--json'], { env: s.env })).stdout) as { state: string; workspaces: Array<{ state: string }> };
    expect(json.state).toBe('up-to-date');
    expect(json.workspaces[0]?.state).toBe('up-to-date');
  }, 120_000);
});
