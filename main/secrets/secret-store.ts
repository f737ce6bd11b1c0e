/**
 * Where the API key and secret live. One interface serves the command line and the desktop app;
 * the OS keychain is the default, environment variables serve bare machines (scripts, CI).
 * Secrets never go to SQLite, logs or error messages.
 */
import type { AsyncEntry } from '@napi-rs/keyring';

export interface ApiCredentials {
  key: string;
  secret: string;
}

export interface SecretStore {
  readonly name: string;
  get(accountRef: string): Promise<ApiCredentials | undefined>;
  set(accountRef: string, credentials: ApiCredentials): Promise<void>;
  delete(accountRef: string): Promise<void>;
}

export class KeychainUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      'The OS keychain is not available on this machine (no Secret Service, Keychain or Credential Manager could be reached). ' +
        'Set ASSET_SYNC_API_KEY and ASSET_SYNC_API_SECRET in the environment instead.',
      { cause },
    );
  }
}

const SERVICE = 'asset-sync';

/**
 * The keychain entry of an account. The native binding loads on first use: a run whose
 * credentials come from the environment never maps it (about 10 MiB and 30 ms at start-up).
 */
async function entry(accountRef: string): Promise<AsyncEntry> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  return new AsyncEntry(SERVICE, accountRef);
}

/** The OS keychain through @napi-rs/keyring (the maintained, keytar-compatible binding). */
export class KeychainSecretStore implements SecretStore {
  readonly name = 'OS keychain';

  async get(accountRef: string): Promise<ApiCredentials | undefined> {
    let text: string | null;
    try {
      text = await (await entry(accountRef)).getPassword();
    } catch (error) {
      throw new KeychainUnavailableError(error);
    }
    if (!text) return undefined;
    const parsed = JSON.parse(text) as Partial<ApiCredentials>;
    return typeof parsed.key === 'string' && typeof parsed.secret === 'string' ? { key: parsed.key, secret: parsed.secret } : undefined;
  }

  async set(accountRef: string, credentials: ApiCredentials): Promise<void> {
    try {
      await (await entry(accountRef)).setPassword(JSON.stringify(credentials));
    } catch (error) {
      throw new KeychainUnavailableError(error);
    }
  }

  async delete(accountRef: string): Promise<void> {
    try {
      await (await entry(accountRef)).deleteCredential();
    } catch (error) {
      throw new KeychainUnavailableError(error);
    }
  }
}

/** Read-only credentials from ASSET_SYNC_API_KEY / ASSET_SYNC_API_SECRET. */
export class EnvSecretStore implements SecretStore {
  readonly name = 'environment';

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  async get(): Promise<ApiCredentials | undefined> {
    const key = this.env.ASSET_SYNC_API_KEY;
    const secret = this.env.ASSET_SYNC_API_SECRET;
    return key && secret ? { key, secret } : undefined;
  }

  async set(): Promise<void> {
    throw new Error('Credentials from the environment cannot be changed by Asset Sync; edit ASSET_SYNC_API_KEY / ASSET_SYNC_API_SECRET.');
  }

  async delete(): Promise<void> {}
}

/** Which keychain entry holds an account's credentials: one per service origin and account. */
export const accountRef = (baseUrl: string, accountId: string): string => `${new URL(baseUrl).origin}#${accountId}`;

/**
 * Environment first (an explicit choice for this run), then the keychain. A missing keychain is
 * not an error while the environment supplies the credentials.
 */
export async function resolveCredentials(ref: string, stores: SecretStore[] = [new EnvSecretStore(), new KeychainSecretStore()]): Promise<ApiCredentials> {
  let keychainError: Error | undefined;
  for (const store of stores) {
    try {
      const found = await store.get(ref);
      if (found) return found;
    } catch (error) {
      keychainError = error as Error;
    }
  }
  if (keychainError) throw keychainError;
  throw new Error(
    'No API key is stored for this account. Run `asset-sync login` to store one in the OS keychain, ' +
      'or set ASSET_SYNC_API_KEY and ASSET_SYNC_API_SECRET.',
  );
}
