/**
 * The media channels of the IPC contract: thumbnails and previews (main/media), answered by the
 * host's media service over the running session. A host without one (the tests of other
 * channels, a build without pictures) answers that pictures are not made here.
 */
import type { ParsedRequestOf, Responses } from '../../shared/ipc.js';
import type { MediaService } from '../media/media-service.js';
import { AppError } from './bridge-errors.js';
import type { AppSession } from './session.js';

type MediaChannel = 'mediaThumbnails' | 'mediaPreview';
type MediaHandlers = { [C in MediaChannel]: (request: ParsedRequestOf<C>) => Promise<Responses[C]> };

export function mediaHandlers(media: MediaService | null, need: () => AppSession): MediaHandlers {
  const service = (): MediaService => {
    need();
    if (!media) throw new AppError('not_available', 'Pictures of files are not made in this window.');
    return media;
  };
  return {
    mediaThumbnails: async (request) => service().thumbnails(request),
    mediaPreview: async (request) => service().preview(request),
  };
}
