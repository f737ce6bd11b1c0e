/**
 * Pictures of the work: thumbnails and previews made on this computer, cached under the state
 * folder, served through capability URLs (see media-service.ts).
 */
import { join } from 'node:path';
import { appDirs, type Config } from '../config.js';
import type { Logger } from '../logging.js';
import { MediaService } from './media-service.js';

export { MediaService, type MediaServiceOptions, type MediaSessionWithEngine, type OpenedMedia } from './media-service.js';
export { answerMedia, capabilityOf, MEDIA_HEADERS, type MediaAnswer } from './serve.js';
export { MEDIA_PATH_PREFIX } from './capability.js';

const MiB = 1024 * 1024;

/** The media service an app host (the desktop app, `sync --ui`) runs with its config. */
export function mediaServiceFor(config: Config, logger?: Logger): MediaService {
  return new MediaService({ dir: join(appDirs().data, 'media'), cacheBytes: config.mediaCacheMiB * MiB, prefetch: config.prefetchThumbnails, logger });
}
