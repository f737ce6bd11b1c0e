/**
 * `npx tsx bench/plan-scale.ts [--files N] [--changes] [--runs K] [--alloc] [--profile FILE]`: times `plan()` alone
 * on N synced files (local = base = remote, 100 files per folder), with nothing to do or, with
 * `--changes`, a few of each kind of change (edits on either side, renames on either side, new
 * files, deletions). Each side's entries are objects and strings of their own, as the scanner,
 * the index and the service listing make them. Prints per run: wall ms, CPU ms, and with
 * `--alloc` the bytes allocated inside `plan()` (V8's sampling heap profiler, objects collected
 * since counted too). `--profile FILE` writes a CPU profile of each run's `plan()` alone
 * (FILE-1.cpuprofile, ...: read it with bench/profile-summary.ts).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { pathKey } from '../main/local/paths.js';
import type { BaseFile, BaseFolder, LocalFile, LocalFolder, PlannerInput, RemoteFile, RemoteFolder } from '../main/model/views.js';
import { plan } from '../main/sync/planner/plan.js';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '100000' },
    changes: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    alloc: { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const files = Number(values.files);
const PER_FOLDER = 100;

/** A fresh flat string with the same text: each side holds its own copy, as read from its own source. */
const own = (s: string): string => Buffer.from(s, 'latin1').toString('latin1');
const hex = (i: number, salt: string): string => (salt + i.toString(16)).padStart(64, '0');

function build(): PlannerInput {
  const local = new Map<string, LocalFile>();
  const base = new Map<string, BaseFile>();
  const remote = new Map<string, RemoteFile>();
  const localFolders = new Map<string, LocalFolder>();
  const baseFolders = new Map<string, BaseFolder>();
  const remoteFolders = new Map<string, RemoteFolder>();
  const folderCount = Math.max(1, Math.ceil(files / PER_FOLDER));
  for (let f = 0; f < folderCount; f++) {
    const parent = `d${String(f % 100).padStart(3, '0')}`;
    const path = f < 100 ? parent : `${parent}/s${String(Math.floor(f / 100)).padStart(4, '0')}`;
    localFolders.set(pathKey(path), { path: own(path), inode: 10_000_000 + f });
    baseFolders.set(pathKey(path), { path: own(path), folderId: `folder-${f}`, inode: 10_000_000 + f });
    remoteFolders.set(pathKey(path), { path: own(path), folderId: own(`folder-${f}`), parentId: f < 100 ? null : `folder-${f % 100}` });
  }
  for (let i = 0; i < files; i++) {
    const f = i % folderCount;
    const parent = `d${String(f % 100).padStart(3, '0')}`;
    const folder = f < 100 ? parent : `${parent}/s${String(Math.floor(f / 100)).padStart(4, '0')}`;
    const path = `${folder}/f${String(i).padStart(7, '0')}.bin`;
    const checksum = hex(i, 'c');
    const mtimeNs = `17000000000${String(i).padStart(8, '0')}`;
    const key = pathKey(path);
    local.set(key, { path: own(path), size: 4096 + (i % 1000), mtimeNs: own(mtimeNs), ctimeNs: own(mtimeNs), inode: 1000 + i, checksum: own(checksum) });
    base.set(pathKey(own(path)), {
      path: own(path),
      assetId: `asset-${i}`,
      versionId: `version-${i}`,
      checksum: own(checksum),
      size: 4096 + (i % 1000),
      mtimeNs: own(mtimeNs),
      inode: 1000 + i,
    });
    remote.set(pathKey(own(path)), {
      path: own(path),
      assetId: own(`asset-${i}`),
      folderId: `folder-${f}`,
      versionId: own(`version-${i}`),
      versionNumber: 1,
      checksum: own(checksum),
      size: 4096 + (i % 1000),
      lockedByUserId: null,
      sequence: i + 1,
    });
  }
  if (values.changes) change(local, remote);
  return {
    files: { local, base, remote },
    folders: { local: localFolders, base: baseFolders, remote: remoteFolders },
    selfUserId: 'user-self',
    deviceName: 'bench',
    now: new Date(Date.UTC(2024, 0, 1)),
  };
}

/** Five of each: local edit, remote edit, local rename, remote move, new local, new remote, local delete, remote delete. */
function change(local: Map<string, LocalFile>, remote: Map<string, RemoteFile>): void {
  const keys = [...local.keys()];
  const pick = (n: number): string => keys[Math.floor((n * 7919 * 104729) % keys.length)] as string;
  let n = 1;
  const next = (): string => pick(n++);
  const moveKey = <T extends { path: string }>(map: Map<string, T>, key: string, edit: (v: T, path: string) => T): void => {
    const v = map.get(key) as T;
    const path = v.path.replace(/\.bin$/, '-renamed.bin');
    map.delete(key);
    map.set(pathKey(path), edit(v, path));
  };
  for (let i = 0; i < 5; i++) {
    const le = next();
    local.set(le, { ...(local.get(le) as LocalFile), checksum: hex(i, 'e'), mtimeNs: '1800000000000000000' });
    const re = next();
    remote.set(re, { ...(remote.get(re) as RemoteFile), checksum: hex(i, 'f'), versionId: `v2-${i}` });
    moveKey(local, next(), (v, path) => ({ ...v, path }));
    moveKey(remote, next(), (v, path) => ({ ...v, path }));
    local.set(`d001/local-new-${i}.bin`, { path: `d001/local-new-${i}.bin`, size: 10, mtimeNs: '1', ctimeNs: '1', inode: 90_000_000 + i, checksum: hex(i, 'a') });
    const rp = `d000/remote-new-${i}.bin`;
    remote.set(rp, { path: rp, assetId: `new-${i}`, folderId: 'folder-0', versionId: `nv-${i}`, versionNumber: 1, checksum: hex(i, 'b'), size: 10, lockedByUserId: null, sequence: 1 });
    local.delete(next());
    remote.delete(next());
  }
}

const input = build();
const session = new Session();
if (values.alloc || values.profile !== undefined) session.connect();
if (values.alloc) await session.post('HeapProfiler.enable');
if (values.profile !== undefined) {
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
}
for (let run = 1; run <= Number(values.runs); run++) {
  if (values.alloc) {
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  if (values.profile !== undefined) await session.post('Profiler.start');
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = plan(input);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (values.profile !== undefined) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(values.profile.replace(/(\.cpuprofile)?$/, `-${run}.cpuprofile`), JSON.stringify(profile));
  }
  let allocated = '';
  if (values.alloc) {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    type Node = { selfSize: number; children: Node[] };
    const total = (node: Node): number => node.selfSize + node.children.reduce((sum, c) => sum + total(c), 0);
    allocated = ` allocated=${(total(profile.head as Node) / 2 ** 20).toFixed(1)}MiB`;
    if (process.env.ALLOC_TOP) {
      type Frame = Node & { callFrame: { functionName: string; url: string; lineNumber: number } };
      const bySite = new Map<string, number>();
      const walk = (node: Frame): void => {
        const site = `${node.callFrame.functionName} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber + 1}`;
        bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
        for (const child of node.children as Frame[]) walk(child);
      };
      walk(profile.head as Frame);
      for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${(bytes / 2 ** 20).toFixed(1)} MiB  ${site}`);
    }
  }
  console.log(
    `files=${files} changes=${values.changes} run=${run} wall=${wall.toFixed(0)}ms cpu=${((used.user + used.system) / 1000).toFixed(0)}ms actions=${result.actions.length}${allocated}`,
  );
}
