import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export type BlobOp = 'get' | 'put';

export interface SignedParams {
  op: BlobOp;
  key: string;
  exp: number;
  /** The checksum a PUT must match. */
  sha256?: string | undefined;
}

/** Values that form-encoding leaves as they are: such a query can be written without URLSearchParams. */
const PLAIN = /^[A-Za-z0-9]*$/;

/** HMAC-signed URLs for the blob origin: anyone holding one may do that one thing until `exp`. */
export class UrlSigner {
  /** Made once: createHmac with the secret as text imports it again on every call. */
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly origin: () => string,
    private readonly ttlSeconds: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(op: BlobOp, key: string, sha256?: string): { url: string; expiresAt: Date } {
    const exp = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    const sig = this.mac({ op, key, exp, sha256 });
    return { url: `${this.origin()}/blobs/${encodeURIComponent(key)}?${query(op, exp, sha256, sig)}`, expiresAt: new Date(exp * 1000) };
  }

  /** The verified parameters, or the reason the URL is refused. */
  verify(key: string, query: URLSearchParams, now = Date.now()): SignedParams | { refused: string } {
    const op = query.get('op');
    const exp = Number(query.get('exp'));
    const sig = query.get('sig') ?? '';
    const sha256 = query.get('sha256') ?? undefined;
    if ((op !== 'get' && op !== 'put') || !Number.isInteger(exp)) return { refused: 'The signed URL is malformed.' };
    const expected = Buffer.from(this.mac({ op, key, exp, sha256 }), 'hex');
    const given = Buffer.from(sig, 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { refused: 'The URL signature does not match.' };
    if (exp * 1000 < now) return { refused: 'The signed URL has expired.' };
    return { op, key, exp, sha256 };
  }

  private mac(p: SignedParams): string {
    return createHmac('sha256', this.key).update(`${p.op}\n${p.key}\n${p.exp}\n${p.sha256 ?? ''}`).digest('hex');
  }
}

/** `op=…&exp=…[&sha256=…]&sig=…`, exactly as URLSearchParams writes it. */
function query(op: BlobOp, exp: number, sha256: string | undefined, sig: string): string {
  if (sha256 && !PLAIN.test(sha256)) {
    const params = new URLSearchParams({ op, exp: String(exp) });
    params.set('sha256', sha256);
    params.set('sig', sig);
    return params.toString();
  }
  return sha256 ? `op=${op}&exp=${exp}&sha256=${sha256}&sig=${sig}` : `op=${op}&exp=${exp}&sig=${sig}`;
}
