/**
 * A process shaped like an engine's, for heap-growth.test.ts: a model that lives, then a stream
 * of objects that each live long enough to reach the old generation and then die, as a download's
 * per-file objects do, under the engine's growth policy, so that V8 collects the old generation
 * and sets its next limit.
 */
import { growHeapSlowly } from '../../main/heap-growth.js';

growHeapSlowly();

const model = Array.from({ length: 200_000 }, (_, i) => ({ id: i, path: `folder-${i % 1000}/file-${i}.bin`, size: i * 7 }));
// Each item is dropped 40,000 items later: after the scavenges that promote it.
const inFlight: unknown[] = new Array(40_000);
for (let i = 0; i < 4_000_000; i += 1) inFlight[i % inFlight.length] = { id: i, path: `transfer-${i}`, parts: [i, i + 1, i + 2] };
process.stdout.write(`kept ${model.length + inFlight.length}\n`);
