/**
 * The terminal's view of a running engine: a status line and one progress bar per transfer
 * (cli-progress), with lines scrolling above them. Loaded only when the output is a terminal.
 */
import { MultiBar, type SingleBar } from 'cli-progress';
import type { EngineStatus, TransferProgress } from '../../shared/engine.js';
import { formatBytes, formatDuration, formatSpeed } from './output.js';
import { statusText, type Sink } from './status-line.js';

function transferPayload(t: TransferProgress): Record<string, string> {
  const name = t.path.length > 40 ? `…${t.path.slice(-39)}` : t.path;
  return {
    arrow: t.direction === 'download' ? '↓' : '↑',
    name: name.padEnd(40),
    // Not `eta`/`value`/`total`: cli-progress fills those tokens itself.
    bytesText: `${formatBytes(t.bytesDone)}/${formatBytes(t.bytesTotal)}`,
    speedText: formatSpeed(t.speed),
    etaText: formatDuration(t.etaSeconds),
  };
}

export class TerminalSink implements Sink {
  private readonly bars = new MultiBar({
    format: '{arrow} {name} |{bar}| {bytesText} {speedText} ETA {etaText}',
    stream: process.stdout,
    barsize: 24,
    hideCursor: true,
    clearOnComplete: true,
    stopOnComplete: false,
    autopadding: true,
    fps: 5,
    // Bars move when lines are logged above or bars removed: redraw all, not only the changed ones.
    forceRedraw: true,
  });
  private readonly statusBar: SingleBar;
  private readonly transfers = new Map<string, SingleBar>();
  private readonly queued = new Set<string>();
  private lastStatus: EngineStatus | null = null;

  constructor() {
    // The status line is a bar whose whole format is its text; it keeps the multi-bar drawing.
    this.statusBar = this.bars.create(1, 0, { text: 'Asset Sync: starting' }, { format: '{text}' });
  }

  line(text: string): void {
    // Erase what a bar left on the line the text is written over.
    this.bars.log(`${text}\x1b[K\n`);
  }

  status(status: EngineStatus): void {
    this.lastStatus = status;
    this.redrawStatus();
  }

  private redrawStatus(): void {
    if (this.lastStatus) this.statusBar.update(0, { text: statusText(this.lastStatus, { active: this.transfers.size, queued: this.queued.size }) });
  }

  transfer(t: TransferProgress): void {
    const bar = this.transfers.get(t.id);
    // Queued transfers are only counted in the status line; a bar appears when one starts.
    if (t.state === 'queued') this.queued.add(t.id);
    else this.queued.delete(t.id);
    if (t.state === 'done' || t.state === 'failed') {
      if (bar) this.bars.remove(bar);
      this.transfers.delete(t.id);
    } else if (t.state === 'active') {
      const total = Math.max(1, t.bytesTotal);
      if (!bar) this.transfers.set(t.id, this.bars.create(total, t.bytesDone, transferPayload(t)));
      else {
        bar.setTotal(total);
        bar.update(t.bytesDone, transferPayload(t));
      }
    }
    this.redrawStatus();
  }

  stop(): void {
    // Lines logged since the last redraw are written by a redraw; stop() alone would drop them.
    this.bars.update();
    this.bars.stop();
  }
}
