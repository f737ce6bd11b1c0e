/**
 * What the picture worker is asked and what it answers. Plain data: it crosses the thread
 * boundary, the picture's bytes as a transferred buffer.
 */
import type { NoPictureReason } from '../../../shared/media.js';

export interface RenderJob {
  /** 'render': a picture and the source's metadata; 'probe': the metadata alone. */
  op: 'render' | 'probe';
  /** Absolute path of the source file: a verified synced file or a cache file. */
  file: string;
  /** The format its bytes were sniffed as (MediaType.format). */
  format: string;
  /** Longest edge of the picture, in pixels (never enlarged). */
  edge: number;
  /** 1-based page, for PDFs. */
  page: number;
}

export interface SourceMeta {
  width: number | null;
  height: number | null;
  pages: number | null;
  durationSeconds: number | null;
}

export type RenderOutcome =
  | { ok: true; picture: Uint8Array | null; width: number; height: number; meta: SourceMeta }
  | { ok: false; reason: Exclude<NoPictureReason, 'not_available'>; message: string };

/** A decoder said no for a reason the user can be told. */
export class NoPicture extends Error {
  override readonly name = 'NoPicture';
  constructor(
    readonly reason: Exclude<NoPictureReason, 'not_available'>,
    message: string,
  ) {
    super(message);
  }
}

/** Decoding more pixels than this (10,000 x 10,000) is refused before it starts: memory, not looks. */
export const MAX_PIXELS = 100_000_000;

export const NO_META: SourceMeta = { width: null, height: null, pages: null, durationSeconds: null };
