/**
 * The service under test, in its own process (dist/node/service.js, as `npm run service` runs
 * it), so its event loop and memory are not the load generator's. `--demo --demo-assets 0` gives a Pro account, a user with an API
 * key and an empty workspace; a data folder seeded beforehand (children/seed-scale.ts) brings its
 * own credentials instead.
 */
import { SERVICE_SCRIPT, ScriptChild } from './proc.js';

export interface Tenant {
  accountId: string;
  workspaceId: string;
  key: string;
  secret: string;
}

export interface ServiceProcess {
  baseUrl: string;
  blobUrl: string;
  dataDir: string;
  /** The demo tenant, when the service seeded one. */
  tenant: Tenant | undefined;
  stop(): Promise<void>;
}

interface CliInfo {
  base_url: string;
  blob_url: string;
  data_dir: string;
  account_id?: string;
  workspace_id?: string;
  api_key?: string;
  api_secret?: string;
}

export async function startServiceProcess(options: {
  dataDir: string;
  demo: boolean;
  profileDir?: string | undefined;
  /** `--faults` of the service, e.g. `latency=50`. */
  faults?: string | undefined;
}): Promise<ServiceProcess> {
  const args = [
    '--port', '0', '--blob-port', '0', '--data', options.dataDir, '--json',
    ...(options.demo ? ['--demo', '--demo-assets', '0'] : []),
    ...(options.faults ? ['--faults', options.faults] : []),
  ];
  const child = new ScriptChild(SERVICE_SCRIPT, args, { profileDir: options.profileDir });
  let info: CliInfo;
  try {
    info = await child.next<CliInfo>();
  } catch (error) {
    child.kill();
    throw error;
  }
  const tenant = info.account_id && info.workspace_id && info.api_key && info.api_secret
    ? { accountId: info.account_id, workspaceId: info.workspace_id, key: info.api_key, secret: info.api_secret }
    : undefined;
  return {
    baseUrl: info.base_url,
    blobUrl: info.blob_url,
    dataDir: info.data_dir,
    tenant,
    async stop() {
      child.child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill(), 10_000);
      await child.exit();
      clearTimeout(timer);
    },
  };
}
