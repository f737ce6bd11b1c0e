import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export type BlobOp = 'get' | 'put';

export interface SignedParams {
  op: BlobOp;
  key: string;
  exp: number;
  /** The checksum a PUT must match. */
  sha256?: string | undefined;
  /** The exact byte count of a PUT, when the upload declared one. */
  size?: number | undefined;
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

  sign(op: BlobOp, key: string, sha256?: string, size?: number): { url: string; expiresAt: Date } {
    const exp = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    const sig = this.mac({ op, key, exp, sha256, size });
    return { url: `${this.origin()}/blobs/${encodeURIComponent(key)}?${query({ op, exp, sha256, size }, sig)}`, expiresAt: new Date(exp * 1000) };
  }

  /** The verified parameters, or the reason the URL is refused. */
  verify(key: string, query: URLSearchParams, now = Date.now()): SignedParams | { refused: string } {
    const op = query.get('op');
    const exp = Number(query.get('exp'));
    const sig = query.get('sig') ?? '';
    const sha256 = query.get('sha256') ?? undefined;
    const sizeText = query.get('size');
    const size = sizeText === null ? undefined : Number(sizeText);
    if ((op !== 'get' && op !== 'put') || !Number.isInteger(exp) || (size !== undefined && !Number.isSafeInteger(size))) {
      return { refused: 'The signed URL is malformed.' };
    }
    const expected = Buffer.from(this.mac({ op, key, exp, sha256, size }), 'hex');
    const given = Buffer.from(sig, 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { refused: 'The URL signature does not match.' };
    if (exp * 1000 < now) return { refused: 'The signed URL has expired.' };
    return { op, key, exp, sha256, size };
  }

  private mac(p: SignedParams): string {
    // The size is added only when there is one: URLs signed without it keep their signature.
    const text = `${p.op}\n${p.key}\n${p.exp}\n${p.sha256 ?? ''}${p.size === undefined ? '' : `\n${p.size}`}`;
    return createHmac('sha256', this.key).update(text).digest('hex');
  }
}

/** `op=…&exp=…[&sha256=…][&size=…]&sig=…`, exactly as URLSearchParams writes it. */
function query(p: Omit<SignedParams, 'key'>, sig: string): string {
  const optional = `${p.sha256 ? `&sha256=${p.sha256}` : ''}${p.size === undefined ? '' : `&size=${p.size}`}`;
  if (p.sha256 && !PLAIN.test(p.sha256)) {
    const params = new URLSearchParams({ op: p.op, exp: String(p.exp), sha256: p.sha256 });
    if (p.size !== undefined) params.set('size', String(p.size));
    params.set('sig', sig);
    return params.toString();
  }
  return `op=${p.op}&exp=${p.exp}${optional}&sig=${sig}`;
}
