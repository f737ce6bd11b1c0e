/**
 * Syncthing as the rescan peer: its own home (config, keys, database) generated under the run
 * folder, every network feature off but the GUI/REST and a listener on 127.0.0.1, one send-only
 * folder added through the REST API, scans triggered and timed until the folder is idle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { load1, type Run } from './measure.js';
import { freePort } from './peers.js';
import { run } from './proc.js';

export interface Syncthing {
  /** Adds the folder and times its first scan (everything hashed) until idle. */
  addFolder(id: string, path: string, expectedFiles: number): Promise<Run>;
  /** `POST /rest/db/scan` of an unchanged folder, timed until idle. */
  rescan(id: string): Promise<Run>;
  /** Peak RSS so far (VmHWM of the process), MiB. */
  peakRssMiB(): Promise<number | undefined>;
  stop(): Promise<void>;
}

const OPTIONS: Array<[tag: string, value: string]> = [
  ['globalAnnounceEnabled', 'false'],
  ['localAnnounceEnabled', 'false'],
  ['relaysEnabled', 'false'],
  ['natEnabled', 'false'],
  ['startBrowser', 'false'],
  ['urAccepted', '-1'],
  ['crashReportingEnabled', 'false'],
  ['autoUpgradeIntervalH', '0'],
  // Syncthing lowers its own priority by default; the engine does not, so neither does the peer.
  ['setLowPriority', 'false'],
];

export async function startSyncthing(home: string): Promise<Syncthing> {
  await run('syncthing', ['generate', `--home=${home}`, '--no-default-folder', '--skip-port-probing']);
  const guiPort = await freePort();
  const listenPort = await freePort();
  const configFile = join(home, 'config.xml');
  let config = await readFile(configFile, 'utf8');
  for (const [tag, value] of OPTIONS) config = config.replace(new RegExp(`<${tag}>[^<]*</${tag}>`), `<${tag}>${value}</${tag}>`);
  config = config.replace(/<listenAddress>[^<]*<\/listenAddress>/, `<listenAddress>tcp://127.0.0.1:${listenPort}</listenAddress>`);
  await writeFile(configFile, config);
  const apiKey = /<apikey>([^<]+)<\/apikey>/.exec(config)?.[1];
  if (!apiKey) throw new Error('no API key in the generated Syncthing config');
  const base = `http://127.0.0.1:${guiPort}`;
  const child: ChildProcess = spawn('syncthing', ['serve', `--home=${home}`, '--no-browser', '--no-restart', '--no-upgrade', `--gui-address=${base}`, `--logfile=${join(home, 'syncthing.log')}`], {
    env: { ...process.env, STNODEFAULTFOLDER: '1', STNOUPGRADE: '1' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const rest = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const res = await request(`${base}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`Syncthing ${method} ${path} answered ${res.statusCode}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  let myId = '';
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`syncthing exited with ${child.exitCode}`);
    try {
      myId = (await rest<{ myID: string }>('GET', '/rest/system/status')).myID;
      break;
    } catch (error) {
      if (attempt > 300) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const status = (id: string) => rest<{ state: string; localFiles: number }>('GET', `/rest/db/status?folder=${encodeURIComponent(id)}`);
  const waitIdle = async (id: string, files: number): Promise<void> => {
    for (;;) {
      const s = await status(id).catch(() => ({ state: 'unknown', localFiles: 0 }));
      if (s.state === 'idle' && s.localFiles >= files) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    async addFolder(id, path, expectedFiles) {
      const start = process.hrtime.bigint();
      await rest('POST', '/rest/config/folders', {
        id, label: id, path, type: 'sendonly', rescanIntervalS: 0, fsWatcherEnabled: false, devices: [{ deviceID: myId }],
      });
      await waitIdle(id, expectedFiles);
      return { seconds: Number(process.hrtime.bigint() - start) / 1e9, load: load1() };
    },
    async rescan(id) {
      const before = (await status(id)).localFiles;
      const start = process.hrtime.bigint();
      // Answers when the scan is over; the idle check makes sure of it.
      await rest('POST', `/rest/db/scan?folder=${encodeURIComponent(id)}`);
      await waitIdle(id, before);
      return { seconds: Number(process.hrtime.bigint() - start) / 1e9, load: load1() };
    },
    async peakRssMiB() {
      // `syncthing serve` is a monitor process; the work happens in its child (started from any of its threads).
      const pids = [String(child.pid), ...(await run('pgrep', ['-P', String(child.pid)]).catch(() => '')).trim().split(/\s+/)];
      let peak: number | undefined;
      for (const pid of pids.filter(Boolean)) {
        const kib = Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))?.[1]);
        if (Number.isFinite(kib)) peak = Math.max(peak ?? 0, kib / 1024);
      }
      return peak;
    },
    async stop() {
      await rest('POST', '/rest/system/shutdown').catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      if (child.exitCode === null) await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}
