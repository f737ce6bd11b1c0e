/**
 * `npm run service -- [--port 4010] [--data DIR] [--demo] [--json] ...`: the local Asset
 * Collaboration Service over real HTTP, for the demo, tests, benchmarks and trying the client.
 */
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_OPTIONS, parseFailedAuthLimit, parseFaults, parseRateLimit } from './config.js';
import { startService } from './index.js';

const int = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number.`);
  return n;
};
const oneOf = (values: string[]) => (value: string) => {
  if (!values.includes(value)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
  return value;
};
const wrap = <T>(fn: (v: string) => T) => (v: string) => {
  try {
    return fn(v);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
};

const program = new Command('asset-service')
  .description('Local Asset Collaboration Service (API origin + signed-URL blob origin)')
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--port <port>', 'API port (0 = any free port)', int('--port'), 4010)
  .option('--blob-port <port>', 'blob origin port (0 = any free port)', int('--blob-port'), 0)
  .option('--data <dir>', 'folder for the database and blobs (default: a fresh temporary folder)')
  .option('--demo', 'seed a demo account, user, workspace and assets')
  .option('--demo-assets <n>', 'number of demo assets', int('--demo-assets'))
  .option('--json', 'print the connection details as one JSON object')
  .option('--token-ttl <seconds>', 'JWT lifetime', int('--token-ttl'), 3600)
  .option('--token-shape <shape>', 'POST /auth/token answer: string | object', oneOf(['string', 'object']), 'string')
  .option('--error-shape <shape>', 'error bodies: object | flat', oneOf(['object', 'flat']), 'object')
  .option('--workspaces-shape <shape>', 'GET /workspaces: object | list', oneOf(['object', 'list']), 'object')
  .option('--listing-shape <shape>', 'sync listing and changes feed entries: full | minimal', oneOf(['full', 'minimal']), 'full')
  .option('--checksum <algorithm>', 'the checksum algorithm: sha256 | md5 | opaque (a form no client can check)', oneOf(['sha256', 'md5', 'opaque']), 'sha256')
  .option('--absent-fields <how>', 'optional strings without a value: omitted | empty', oneOf(['omitted', 'empty']), 'omitted')
  .option('--sequence-type <type>', 'workspace and sync sequences: number | string', oneOf(['number', 'string']), 'number')
  .option('--extra-fields <which>', 'fields no client knows in every record: none | some', oneOf(['none', 'some']), 'none')
  .option('--array-order <order>', 'every list: natural | reversed', oneOf(['natural', 'reversed']), 'natural')
  .option('--rate-limit <rate>', 'requests per second per token, e.g. 50/s', wrap(parseRateLimit))
  .option('--max-upload-bytes <n>', 'the most bytes one upload may hold (default 5 GiB)', int('--max-upload-bytes'))
  .option('--failed-auth-limit <n>', 'failed authentications per minute per client address (a burst of as many), or off', wrap(parseFailedAuthLimit))
  .option('--faults <spec>', 'latency=MS,error5xx=P,drop=P,truncate=P,seed=N,route=METHOD:/path:STATUS|drop|malformed[:once|:N]', wrap(parseFaults))
  .option('--log', 'log requests');

program.parse();
const o = program.opts<{
  host: string; port: number; blobPort: number; data?: string; demo?: boolean; demoAssets?: number; json?: boolean;
  tokenTtl: number; tokenShape: 'string' | 'object'; errorShape: 'object' | 'flat'; workspacesShape: 'object' | 'list';
  listingShape: 'full' | 'minimal'; checksum: 'sha256' | 'md5' | 'opaque'; absentFields: 'omitted' | 'empty'; sequenceType: 'number' | 'string';
  extraFields: 'none' | 'some'; arrayOrder: 'natural' | 'reversed'; rateLimit?: number; maxUploadBytes?: number; failedAuthLimit?: ReturnType<typeof parseFailedAuthLimit>; faults?: ReturnType<typeof parseFaults>; log?: boolean;
}>();

const service = await startService({
  host: o.host, port: o.port, blobPort: o.blobPort, dataDir: o.data, tokenTtlSeconds: o.tokenTtl, tokenShape: o.tokenShape,
  errorShape: o.errorShape, workspacesShape: o.workspacesShape, listingShape: o.listingShape, rateLimitPerSecond: o.rateLimit,
  checksumAlgorithm: o.checksum, absentFields: o.absentFields, sequenceType: o.sequenceType, extraFields: o.extraFields, arrayOrder: o.arrayOrder,
  failedAuthLimit: o.failedAuthLimit ?? DEFAULT_OPTIONS.failedAuthLimit, maxUploadBytes: o.maxUploadBytes ?? DEFAULT_OPTIONS.maxUploadBytes, faults: o.faults, logger: o.log ?? false,
});
const demo = o.demo ? await service.seedDemo(o.demoAssets !== undefined ? { assets: o.demoAssets } : {}) : undefined;
const info = {
  base_url: service.url,
  blob_url: service.blobUrl,
  data_dir: service.dataDir,
  ...(demo ? { account_id: demo.accountId, workspace_id: demo.workspaceId, api_key: demo.user.apiKey, api_secret: demo.user.apiSecret, user_id: demo.user.userId, colleague: { user_id: demo.colleague.userId, api_key: demo.colleague.apiKey, api_secret: demo.colleague.apiSecret } } : {}),
};
if (o.json) {
  console.log(JSON.stringify(info));
} else {
  console.log(`Asset Collaboration Service listening on ${service.url} (signed URLs on ${service.blobUrl})`);
  console.log(`Data: ${service.dataDir}${o.data ? '' : ' (temporary, removed on exit)'}`);
  if (demo) {
    console.log(`Demo account:   ${demo.accountId}`);
    console.log(`Demo workspace: ${demo.workspaceId} (${demo.assetIds.length} assets)`);
    console.log(`API key:        ${demo.user.apiKey}`);
    console.log(`API secret:     ${demo.user.apiSecret}`);
  }
  console.log('Press Ctrl+C to stop.');
}
const stop = async () => {
  await service.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
