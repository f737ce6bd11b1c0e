/**
 * The engine's scan path alone, in its own process: `scanTree` of a folder with the index's
 * SQLite hash cache, as a workspace cycle calls it. Configured by BENCH_SCAN (JSON: dir,
 * indexPath, workspaceId). Each line "scan" on stdin runs one scan in this same process (the
 * engine's steady state: statements prepared, ignore rules and code warm) and answers one JSON
 * line { seconds, files, folders, hashed, rssMiB }; the end of stdin ends the process.
 */
import { createInterface } from 'node:readline';
import { openIndex } from '../../main/index/sync-index.js';
import { loadIgnoreMatcher } from '../../main/local/ignore.js';
import { scanTree } from '../../main/local/scanner.js';

export interface ScanChildConfig {
  dir: string;
  indexPath: string;
  workspaceId: string;
}

export interface ScanChildResult {
  seconds: number;
  files: number;
  folders: number;
  hashed: number;
  rssMiB: number;
}

const config = JSON.parse(process.env.BENCH_SCAN ?? '{}') as ScanChildConfig;
const index = openIndex(config.indexPath);
if (!index.workspaces.get(config.workspaceId)) {
  index.workspaces.add({ id: config.workspaceId, accountId: 'bench', name: 'bench', localPath: config.dir });
}
const hashCache = index.hashCache(config.workspaceId);
const ignore = await loadIgnoreMatcher(config.dir);

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'scan') continue;
  const start = process.hrtime.bigint();
  const scan = await scanTree(config.dir, { hashCache, ignore });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const result: ScanChildResult = { seconds, files: scan.files.size, folders: scan.folders.size, hashed: scan.hashed, rssMiB: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
index.close();
