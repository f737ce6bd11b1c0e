/**
 * The tray's state badges, drawn in code: a filled disc in the state's colour (a ring when
 * paused or offline), so the icon changes with no image files to ship or keep in sync.
 * Pixels are BGRA, as `nativeImage.createFromBitmap` takes them.
 */
export type TrayIcon = 'up-to-date' | 'syncing' | 'paused' | 'offline' | 'attention';

/** [r, g, b] */
const COLOURS: Record<TrayIcon, readonly [number, number, number]> = {
  'up-to-date': [46, 160, 67],
  syncing: [31, 111, 235],
  paused: [128, 128, 128],
  offline: [128, 128, 128],
  attention: [219, 109, 40],
};

const HOLLOW: ReadonlySet<TrayIcon> = new Set(['paused', 'offline']);

/** A `size`×`size` BGRA bitmap of the badge, edges anti-aliased. */
export function badgePixels(icon: TrayIcon, size: number): Buffer {
  const [r, g, b] = COLOURS[icon];
  const pixels = Buffer.alloc(size * size * 4);
  const centre = size / 2;
  const outer = size / 2 - 0.5;
  const inner = HOLLOW.has(icon) ? outer - Math.max(1.5, size / 8) : -1;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const d = Math.hypot(x + 0.5 - centre, y + 0.5 - centre);
      const coverage = Math.max(0, Math.min(1, outer - d + 0.5)) * Math.max(0, Math.min(1, d - inner + 0.5));
      const at = (y * size + x) * 4;
      pixels[at] = b;
      pixels[at + 1] = g;
      pixels[at + 2] = r;
      pixels[at + 3] = Math.round(coverage * 255);
    }
  }
  return pixels;
}
