/**
 * Media capabilities: only what this process minted, unchanged and unexpired, is accepted.
 * Tampering is drawn from a printed seed (MEDIA_SEED=<seed> replays it).
 */
import { describe, expect, it } from 'vitest';
import { CapabilitySigner, MEDIA_PATH_PREFIX, type CapabilityTarget } from '../../main/media/capability.js';
import { Rng } from '../helpers/rng.js';

const SEED = Number(process.env.MEDIA_SEED ?? Date.now() % 100_000);
const CHECKSUM = 'ab'.repeat(32);
const picture: CapabilityTarget = { k: 'picture', w: 'ws-1', a: 'asset-1', v: 'version-1', c: CHECKSUM, size: 'grid', page: 1 };
const file: CapabilityTarget = { k: 'file', w: 'ws-1', a: 'asset-2', v: 'version-9', c: 'cd'.repeat(32) };
const capabilityOf = (url: string) => url.slice(MEDIA_PATH_PREFIX.length);

describe('CapabilitySigner', () => {
  it('accepts what it minted, naming exactly that target', () => {
    const signer = new CapabilitySigner();
    for (const target of [picture, file]) expect(signer.verify(capabilityOf(signer.mint(target).url))).toEqual({ ok: true, target });
  });

  it(`refuses any changed character (seed ${SEED})`, () => {
    const rng = new Rng(SEED, 'tamper');
    const signer = new CapabilitySigner();
    const token = capabilityOf(signer.mint(picture).url);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    for (let i = 0; i < 300; i += 1) {
      const at = rng.int(0, token.length - 1);
      const replacement = alphabet[rng.int(0, alphabet.length - 1)] as string;
      if (replacement === token[at]) continue;
      const tampered = token.slice(0, at) + replacement + token.slice(at + 1);
      const verdict = signer.verify(tampered);
      // base64url's last character may carry unused bits: a change there can decode to the same signature.
      if (verdict.ok) expect({ at, tampered, verdict }).toMatchObject({ at: token.length - 1, verdict: { ok: true, target: picture } });
      else expect(['forged', 'malformed']).toContain(verdict.why);
    }
  });

  it('refuses another target under a valid signature, another process’s capability, and junk', () => {
    const signer = new CapabilitySigner();
    const [payloadA, signatureA] = capabilityOf(signer.mint(picture).url).split('.') as [string, string];
    const [payloadB] = capabilityOf(signer.mint(file).url).split('.') as [string, string];
    expect(signer.verify(`${payloadB}.${signatureA}`)).toEqual({ ok: false, why: 'forged' });
    const preview = Buffer.from(JSON.stringify({ t: { ...picture, size: 'preview' }, e: 9_999_999_999 })).toString('base64url');
    expect(signer.verify(`${preview}.${signatureA}`)).toEqual({ ok: false, why: 'forged' });
    expect(new CapabilitySigner().verify(`${payloadA}.${signatureA}`)).toEqual({ ok: false, why: 'forged' });
    for (const junk of ['', '.', 'abc', `${payloadA}.`, `.${signatureA}`, 'x'.repeat(5000)]) expect(signer.verify(junk).ok).toBe(false);
  });

  it('refuses a capability once it expired', () => {
    let now = 1_700_000_000_000;
    const signer = new CapabilitySigner(60_000, () => now);
    const minted = signer.mint(file);
    expect(minted.expiresAt).toBe(new Date(now + 60_000).toISOString());
    now += 59_000;
    expect(signer.verify(capabilityOf(minted.url)).ok).toBe(true);
    now += 2_000;
    expect(signer.verify(capabilityOf(minted.url))).toEqual({ ok: false, why: 'expired' });
  });

  it('refuses a signed payload that names something other than a picture or a version', () => {
    const secret = Buffer.alloc(32, 7);
    const signer = new CapabilitySigner(60_000, Date.now, secret);
    // What a bug minting a path would look like: signed, but not a target the server knows.
    const forgedShape = new CapabilitySigner(60_000, Date.now, secret).mint({ k: 'file', w: 'w', a: 'a', v: 'v', c: 'not-a-checksum/../../etc/passwd' } as never);
    expect(signer.verify(capabilityOf(forgedShape.url))).toEqual({ ok: false, why: 'malformed' });
  });
});
