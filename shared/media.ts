/**
 * Pictures of the work, as the renderer sees them: what a file is (read from its bytes), a
 * thumbnail for grids and lists, and a preview for the viewer. Every picture or media file is
 * reached through a `url` the API minted: a same-origin `/media/<capability>` address that names
 * one cache entry or one asset version and expires. The renderer puts it in `<img src>`,
 * `<video src>` or `<audio src>` as it is; it is valid in the desktop app and in the web UI alike.
 */

/** What kind of file it is, for the type icon and the viewer to use. */
export type MediaCategory = 'image' | 'video' | 'audio' | 'pdf' | 'psd' | 'document' | 'archive' | 'font' | 'other';

export interface MediaType {
  category: MediaCategory;
  /** Short name of the format ('png', 'heic', 'mp4', 'wav', 'svg', 'docx'...), or null when unknown. */
  format: string | null;
  mime: string | null;
  /**
   * True when the file's bytes said what it is; false when only its name did (a version not on
   * this computer yet). A name alone never makes a file an image, a video, a PDF or a PSD.
   */
  fromBytes: boolean;
}

/** Why there is no picture: for a tooltip beside the type icon. */
export type NoPictureReason = 'unsupported' | 'unreadable' | 'too_large' | 'not_available';

export type ThumbnailSize = 'grid' | 'preview';

/** The longest edge of each size, in CSS pixels at 1x (grid pictures are shown at up to 128 px). */
export const THUMBNAIL_EDGE: Readonly<Record<ThumbnailSize, number>> = { grid: 256, preview: 2048 };

export interface ThumbnailRef {
  assetId: string;
  /** The version pictured; null when the asset could not be resolved. */
  versionId: string | null;
  type: MediaType;
  /**
   * - 'image': `url` is a WebP picture (made on this computer; it may take a moment to load,
   *   and a load error means "show the icon");
   * - 'video': `url` is the video itself: show `<video src={url + '#t=0.5'} preload="metadata" muted>`
   *   as its poster (posters are made by the renderer's own decoder);
   * - 'icon': no picture; show the icon of `type.category`.
   */
  show: 'image' | 'video' | 'icon';
  url: string | null;
  reason: NoPictureReason | null;
  /** When `url` stops working (ISO time): ask again after it. */
  expiresAt: string | null;
}

export interface MediaPreview {
  assetId: string;
  versionId: string;
  versionNumber: number | null;
  name: string;
  size: number;
  checksum: string;
  type: MediaType;
  /**
   * - 'image': `url` shows the picture fit for a window: the file itself where the browser can
   *   show it (PNG, JPEG, GIF, WebP, AVIF), else a picture of up to 2048 px (PSD, HEIC, TIFF, SVG);
   * - 'pdf': `url` is a picture of `page` (of `pages`); ask again with another page to turn;
   * - 'video', 'audio': `url` is the file itself, served with Range for seeking;
   * - 'none': nothing to show; `reason` says why (show the metadata and "Open").
   */
  view: 'image' | 'pdf' | 'video' | 'audio' | 'none';
  url: string | null;
  /** A grid-sized picture (for audio: its waveform), or null. */
  thumbnailUrl: string | null;
  /** Of the original (for a PDF: of the page, in points). */
  width: number | null;
  height: number | null;
  page: number | null;
  pages: number | null;
  durationSeconds: number | null;
  reason: NoPictureReason | null;
  expiresAt: string | null;
}
