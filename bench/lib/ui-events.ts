/**
 * The web UI's event stream followed as an open page follows it: while it is open the engine
 * counts as looked at and polls at its fast cadence.
 */

/** The line `sync --ui` prints: its address, the token in the fragment. */
export const UI_ADDRESS = /^\s*http:\/\/127\.0\.0\.1:\d+\/#token=\S+\s*$/;

/** Opens `/api/events` with the printed token and reads it until `signal` aborts. */
export async function followEvents(address: URL, signal: AbortSignal): Promise<void> {
  const token = new URLSearchParams(address.hash.slice(1)).get('token') ?? '';
  const res = await fetch(new URL('/api/events', address), { headers: { authorization: `Bearer ${token}` }, signal });
  if (res.status !== 200 || !res.body) throw new Error(`latency: the web UI's event stream answered ${res.status}`);
  // Drained, not parsed: the case times what the command prints and the files on disk.
  void res.body.pipeTo(new WritableStream()).catch(() => undefined);
}
