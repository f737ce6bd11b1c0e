/**
 * Which decoder draws which format. Everything here runs on the picture worker; a decoder that
 * cannot draw a file says why (NoPicture), and anything else that goes wrong reads as
 * "unreadable": a picture that cannot be made is a type icon, never an error for the user.
 */
import { renderHeic } from './heic.js';
import { renderPdf } from './pdf.js';
import { renderPsd } from './psd.js';
import { RASTER_FORMATS, renderRaster } from './raster.js';
import { NoPicture, type RenderJob, type RenderOutcome } from './types.js';
import { renderWav } from './wav.js';

type Decoder = (job: RenderJob) => Promise<RenderOutcome>;

const DECODERS: Readonly<Record<string, Decoder>> = {
  ...Object.fromEntries([...RASTER_FORMATS].map((format) => [format, renderRaster])),
  heic: renderHeic,
  psd: renderPsd,
  pdf: renderPdf,
  ai: renderPdf,
  wav: renderWav,
};

/** Formats this computer can draw a picture of. */
export const DRAWN_FORMATS: ReadonlySet<string> = new Set(Object.keys(DECODERS));

export async function render(job: RenderJob): Promise<RenderOutcome> {
  const decoder = DECODERS[job.format];
  if (!decoder) return { ok: false, reason: 'unsupported', message: `No picture is made of ${job.format} files.` };
  try {
    return await decoder(job);
  } catch (error) {
    if (error instanceof NoPicture) return { ok: false, reason: error.reason, message: error.message };
    return { ok: false, reason: 'unreadable', message: error instanceof Error ? error.message : String(error) };
  }
}
