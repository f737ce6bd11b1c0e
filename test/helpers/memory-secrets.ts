/** A secret store in memory: what Sign in stores, without touching the OS keychain. */
import type { ApiCredentials, SecretStore } from '../../main/secrets/secret-store.js';

export class MemorySecrets implements SecretStore {
  readonly name = 'memory';
  readonly items = new Map<string, ApiCredentials>();
  async get(ref: string) {
    return this.items.get(ref);
  }
  async set(ref: string, credentials: ApiCredentials) {
    this.items.set(ref, credentials);
  }
  async delete(ref: string) {
    this.items.delete(ref);
  }
}
