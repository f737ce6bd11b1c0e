/**
 * A WAV file's waveform, drawn from its PCM samples: the peak of each column, read in blocks so
 * an hour of audio costs no more memory than a second. The RIFF chunks are walked here (a dozen
 * lines) rather than by a library, since the WAV readers on npm load the whole file.
 */
import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { pictureOf } from './picture.js';
import { NoPicture, type RenderJob, type RenderOutcome } from './types.js';

interface PcmFormat {
  /** 1: integer PCM; 3: IEEE float. */
  encoding: 1 | 3;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataStart: number;
  dataBytes: number;
}

const BLOCK_BYTES = 1024 * 1024;
const WAVE_COLOUR = '#4f7cff';

async function readFormat(file: Awaited<ReturnType<typeof open>>, size: number): Promise<PcmFormat> {
  const head = Buffer.alloc(12);
  await file.read(head, 0, 12, 0);
  if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') throw new NoPicture('unreadable', 'The file is not a RIFF WAVE file.');
  let fmt: Omit<PcmFormat, 'dataStart' | 'dataBytes'> | undefined;
  const chunk = Buffer.alloc(40);
  for (let at = 12; at + 8 <= size; ) {
    const { bytesRead } = await file.read(chunk, 0, 40, at);
    if (bytesRead < 8) break;
    const id = chunk.toString('latin1', 0, 4);
    const length = chunk.readUInt32LE(4);
    if (id === 'fmt ' && bytesRead >= 24) {
      let encoding = chunk.readUInt16LE(8);
      // WAVE_FORMAT_EXTENSIBLE names the real encoding in the first two bytes of its sub-format GUID.
      if (encoding === 0xfffe && bytesRead >= 34) encoding = chunk.readUInt16LE(32);
      if (encoding !== 1 && encoding !== 3) throw new NoPicture('unsupported', 'The WAV file is compressed; only PCM is drawn.');
      fmt = { encoding, channels: chunk.readUInt16LE(10), sampleRate: chunk.readUInt32LE(12), bitsPerSample: chunk.readUInt16LE(22) };
    } else if (id === 'data') {
      if (!fmt) throw new NoPicture('unreadable', 'The WAV file has no format chunk before its data.');
      return { ...fmt, dataStart: at + 8, dataBytes: Math.min(length, size - at - 8) };
    }
    at += 8 + length + (length % 2);
  }
  throw new NoPicture('unreadable', 'The WAV file has no audio data.');
}

function sampleReader(format: PcmFormat): ((block: Buffer, offset: number) => number) | undefined {
  const { encoding, bitsPerSample } = format;
  if (encoding === 3 && bitsPerSample === 32) return (b, o) => b.readFloatLE(o);
  if (encoding === 3 && bitsPerSample === 64) return (b, o) => b.readDoubleLE(o);
  if (encoding !== 1) return undefined;
  if (bitsPerSample === 8) return (b, o) => ((b[o] as number) - 128) / 128;
  if (bitsPerSample === 16) return (b, o) => b.readInt16LE(o) / 32768;
  if (bitsPerSample === 24) return (b, o) => b.readIntLE(o, 3) / 8388608;
  if (bitsPerSample === 32) return (b, o) => b.readInt32LE(o) / 2147483648;
  return undefined;
}

export async function renderWav(job: RenderJob): Promise<RenderOutcome> {
  const file = await open(job.file, 'r');
  try {
    const { size } = await file.stat();
    const format = await readFormat(file, size);
    const frameBytes = (format.bitsPerSample / 8) * format.channels;
    const read = sampleReader(format);
    if (!read || frameBytes === 0 || format.sampleRate === 0) throw new NoPicture('unsupported', `WAV samples of ${format.bitsPerSample} bits are not drawn.`);
    const frames = Math.floor(format.dataBytes / frameBytes);
    const meta = { width: null, height: null, pages: null, durationSeconds: frames / format.sampleRate };
    const width = job.edge;
    const height = Math.round(job.edge / 2);
    if (job.op === 'probe') return { ok: true, picture: null, width, height, meta };
    const peaks = new Float32Array(width);
    const block = Buffer.alloc(Math.max(frameBytes, BLOCK_BYTES - (BLOCK_BYTES % frameBytes)));
    for (let frame = 0; frame < frames; ) {
      const { bytesRead } = await file.read(block, 0, Math.min(block.length, (frames - frame) * frameBytes), format.dataStart + frame * frameBytes);
      const inBlock = Math.floor(bytesRead / frameBytes);
      if (inBlock === 0) break;
      for (let i = 0; i < inBlock; i += 1, frame += 1) {
        const column = Math.min(width - 1, Math.floor((frame / frames) * width));
        // The first channel stands for all: a waveform shows loudness over time, not stereo.
        const value = Math.abs(read(block, i * frameBytes));
        if (value > (peaks[column] as number)) peaks[column] = value;
      }
    }
    const middle = height / 2;
    const bars = Array.from(peaks, (peak, x) => {
      const half = Math.max(0.5, Math.min(1, peak) * middle * 0.95);
      return `<rect x="${x}" y="${(middle - half).toFixed(1)}" width="1" height="${(2 * half).toFixed(1)}"/>`;
    }).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g fill="${WAVE_COLOUR}">${bars}</g></svg>`;
    return { ok: true, ...(await pictureOf(sharp(Buffer.from(svg)), job.edge)), meta };
  } finally {
    await file.close();
  }
}
