/**
 * Media addresses the renderer can put in `<img src>` and `<video src>`, which send no header:
 * `/media/<capability>`, where the capability is minted by an API call and names exactly one
 * thing (one picture of one version, or one version's own bytes), signed with HMAC-SHA256 under
 * a secret that lives only in this process's memory, and expiring. Nothing else is served:
 * a capability never carries a path, and what it names is resolved through the index and the
 * cache when it is used.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const MEDIA_PATH_PREFIX = '/media/';

/** One version of one asset: workspace, asset and version ids, and the checksum that pins its bytes. */
const version = {
  w: z.string(),
  a: z.string(),
  v: z.string(),
  c: z.string().regex(/^[0-9a-f]{64}$/),
};

/** A picture of one version, keyed in the cache by the version's checksum. */
export const PictureTarget = z.object({ k: z.literal('picture'), ...version, size: z.enum(['grid', 'preview']), page: z.number().int().min(1) });

/** The bytes of one version (an image the browser shows as it is, a video, an audio file). */
export const FileTarget = z.object({ k: z.literal('file'), ...version });

export const CapabilityTarget = z.discriminatedUnion('k', [PictureTarget, FileTarget]);
export type CapabilityTarget = z.infer<typeof CapabilityTarget>;
export type PictureTarget = z.infer<typeof PictureTarget>;
export type FileTarget = z.infer<typeof FileTarget>;

const Payload = z.object({ t: CapabilityTarget, e: z.number().int() });

export type Verified = { ok: true; target: CapabilityTarget } | { ok: false; why: 'malformed' | 'forged' | 'expired' };

export interface Minted {
  url: string;
  expiresAt: string;
}

const b64 = (bytes: Buffer): string => bytes.toString('base64url');

export class CapabilitySigner {
  private readonly secret: Buffer;

  constructor(
    private readonly ttlMs: number = 60 * 60_000,
    private readonly now: () => number = Date.now,
    secret?: Buffer,
  ) {
    this.secret = secret ?? randomBytes(32);
  }

  mint(target: CapabilityTarget): Minted {
    const expires = this.now() + this.ttlMs;
    const payload = b64(Buffer.from(JSON.stringify({ t: target, e: Math.ceil(expires / 1000) })));
    return { url: `${MEDIA_PATH_PREFIX}${payload}.${b64(this.sign(payload))}`, expiresAt: new Date(expires).toISOString() };
  }

  /** Checks a capability (the URL path after `/media/`): signature first, then expiry, then shape. */
  verify(capability: string): Verified {
    const dot = capability.indexOf('.');
    if (dot <= 0 || capability.length > 4096) return { ok: false, why: 'malformed' };
    const payload = capability.slice(0, dot);
    const given = Buffer.from(capability.slice(dot + 1), 'base64url');
    const expected = this.sign(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, why: 'forged' };
    let parsed: z.infer<typeof Payload>;
    try {
      parsed = Payload.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    } catch {
      return { ok: false, why: 'malformed' };
    }
    if (parsed.e * 1000 <= this.now()) return { ok: false, why: 'expired' };
    return { ok: true, target: parsed.t };
  }

  private sign(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(`asset-sync-media:${payload}`).digest();
  }
}
