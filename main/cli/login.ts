/**
 * `asset-sync login`: checks an API key with the service, keeps it in the OS keychain and the
 * service URL and account in the config file (never the secret).
 */
import { connect } from '../bootstrap.js';
import { configPath, saveConfig } from '../config.js';
import { KeychainSecretStore, KeychainUnavailableError, accountRef, type SecretStore } from '../secrets/secret-store.js';
import { EXIT_OK, EXIT_PROBLEMS, UsageError } from './outcomes.js';
import { checkBaseUrl, readConfig, type GlobalOptions, type ServiceOptions } from './options.js';
import { personName, print, printError } from './output.js';
import { ask, canPrompt } from './prompt.js';

export interface LoginOptions extends ServiceOptions {
  key?: string;
  secret?: string;
}

async function value(given: string | undefined, question: string, name: string, hidden = false): Promise<string> {
  if (given) return given;
  if (!canPrompt()) throw new UsageError(`Missing ${name}: pass it as an option (no terminal to ask on).`);
  const answer = await ask(question, { hidden });
  if (!answer) throw new UsageError(`Missing ${name}.`);
  return answer;
}

export async function login(options: LoginOptions, globals: GlobalOptions, keychain: SecretStore = new KeychainSecretStore()): Promise<number> {
  const config = readConfig();
  const baseUrl = checkBaseUrl(await value(options.baseUrl ?? config.baseUrl, 'Service URL: ', '--base-url'));
  const accountId = await value(options.account ?? config.accountId, 'Account id: ', '--account');
  const key = await value(options.key ?? process.env.ASSET_SYNC_API_KEY, 'API key: ', '--key');
  const secret = await value(options.secret ?? process.env.ASSET_SYNC_API_SECRET, 'API secret (not shown): ', '--secret', true);

  const connection = await connect({ baseUrl, accountId, credentials: { key, secret }, logToStderr: globals.verbose });
  let who: string;
  try {
    const user = await connection.client.getUser();
    who = personName(user, user.id ?? 'you');
  } finally {
    await connection.close();
  }
  print(`Signed in as ${who} (account ${accountId}).`);

  saveConfig({ ...config, baseUrl, accountId });
  print(`Saved the service URL and account in ${configPath()} (the secret is not written there).`);

  try {
    await keychain.set(accountRef(baseUrl, accountId), { key, secret });
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    printError('The OS keychain is not available here, so the API key was not stored.');
    printError('Set it in the environment of each run instead:');
    printError('  export ASSET_SYNC_API_KEY=<your key>');
    printError('  export ASSET_SYNC_API_SECRET=<your secret>');
    return EXIT_PROBLEMS;
  }
  print(`Stored the API key in the ${keychain.name}.`);
  return EXIT_OK;
}
