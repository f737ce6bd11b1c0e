/**
 * How far V8 lets the heap of a process that runs an engine grow between full collections.
 *
 * An engine holds a large model that lives long (the workspace's tree: about 75 MiB for 100,000
 * assets) and makes short-lived garbage per file it transfers, some of which outlives the young
 * generation (a small download's request, answer and promises still in flight at two scavenges:
 * about 2 KiB a file). V8 sets the next full collection at up to 4 times what survived the last
 * one when collecting is cheap, which it is for such a heap: an initial download of 100,000 small
 * files let the old generation grow from 91 to 309 MiB of mostly dead objects before it was
 * collected, and the process peaked at 400-440 MiB. A sync client lives in the background of a
 * machine that runs heavier programs, so it trades a few more full collections (each marks only
 * what lives, mostly on the other core) for that memory: the heap grows by 20% at a time. The
 * same download then held near 230 MiB and peaked at 280 MiB (in planning and in the cycle after
 * it), for the same CPU time; 30% peaked at 290-296 MiB. A start-up pays about 0.2 s more CPU.
 */
import { setFlagsFromString } from 'node:v8';

/**
 * The largest semi-space of an engine's young generation (two of them make it), in MiB: the
 * command line's first line (bin/asset-sync.js) starts node with it. V8 fixes it when the process
 * starts (set later, through setFlagsFromString, it changes nothing), and grows the young
 * generation to it while an engine builds its model, whose objects all survive: at V8's default
 * of 16 MiB a no-op start-up of 100,000 assets kept 32 MiB of young generation, 22 MiB of it
 * resident at its peak. With 4 MiB the same start-up peaked 22 MiB lower (208-219 against
 * 233 MiB) for the same CPU time: the model's objects are promoted as they are anyway.
 */
export const YOUNG_SEMI_SPACE_MIB = 4;

/** The old generation collects again once it has grown by this share of what survived. */
export const HEAP_GROWING_PERCENT = 20;

/** Applies the growth policy to this process (V8's flags are per process; idempotent). */
export function growHeapSlowly(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
