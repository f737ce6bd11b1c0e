/**
 * Who made a version and its note, for the activity feed. The sync itself never asks (the
 * listing and the changes feed carry neither, and a request per file would slow every
 * download): the feed asks for the entries it shows, and answers are kept a while, so a feed
 * shown again asks for nothing. A note changed here replaces its entry at once.
 */
import type { AssetVersion } from '../service-client/index.js';
import type { VersionSummary } from '../../shared/ipc.js';
import type { ServiceClient } from '../service-client/index.js';
import { authorNames } from '../version-notes.js';

export interface VersionRef {
  assetId: string;
  versionId: string;
}

/** How long an answer is trusted: a note can be changed on another computer meanwhile. */
export const SUMMARY_TTL_MS = 10 * 60_000;
const KEPT = 2000;
/** Lookups in flight at once for one call: a feed of 50 new entries must not open 50 requests. */
const AT_ONCE = 4;

export class VersionSummaries {
  private readonly kept = new Map<string, { summary: VersionSummary; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** One answer per ref, in order; null where the service could not say (tried again next time). */
  async describe(client: ServiceClient, workspaceId: string, refs: readonly VersionRef[], selfUserId: string | null): Promise<Array<VersionSummary | null>> {
    const answers = new Map<string, VersionSummary | null>();
    const missing = [...new Map(refs.map((r) => [r.versionId, r])).values()].filter((r) => {
      const hit = this.kept.get(key(workspaceId, r.versionId));
      if (hit && this.now() - hit.at < SUMMARY_TTL_MS) answers.set(r.versionId, hit.summary);
      return !answers.has(r.versionId);
    });
    const fetched: AssetVersion[] = [];
    for (let i = 0; i < missing.length; i += AT_ONCE) {
      const slice = missing.slice(i, i + AT_ONCE);
      const got = await Promise.all(slice.map((r) => client.getVersion(workspaceId, r.assetId, r.versionId).catch(() => null)));
      for (const version of got) if (version) fetched.push(version);
    }
    const names = fetched.length > 0 ? await authorNames(client, workspaceId, fetched) : new Map<string, string>();
    for (const v of fetched) {
      const summary = {
        versionId: v.id,
        number: v.version_number,
        author: (v.created_by_user_id === undefined ? undefined : names.get(v.created_by_user_id)) ?? (v.created_by_user_id === undefined ? 'someone' : `user ${v.created_by_user_id}`),
        mine: selfUserId !== null && v.created_by_user_id === selfUserId,
        note: v.description || null,
      };
      this.remember(workspaceId, summary);
      answers.set(v.id, summary);
    }
    return refs.map((r) => answers.get(r.versionId) ?? null);
  }

  /** What is known now of a version (a note just written here): kept as the freshest answer. */
  remember(workspaceId: string, summary: VersionSummary): void {
    const k = key(workspaceId, summary.versionId);
    this.kept.delete(k);
    this.kept.set(k, { summary, at: this.now() });
    if (this.kept.size > KEPT) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
  }
}

const key = (workspaceId: string, versionId: string): string => `${workspaceId}\n${versionId}`;
