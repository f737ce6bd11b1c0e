/**
 * The service variant an engine test run talks to. `ASSET_SYNC_SERVICE_VARIANT` holds options of
 * the local service as `name=value` pairs separated by commas (`listingShape=minimal`); a test's
 * own options win over them. vitest.config.ts runs a set of engine scenarios a second time under
 * a variant, so the client is shown to converge against each shape the protocol allows.
 */
import type { ServiceOptions } from '../../service/index.js';

const VARIANTS: Record<string, readonly string[]> = {
  listingShape: ['full', 'minimal'],
  tokenShape: ['string', 'object'],
  errorShape: ['object', 'flat'],
  workspacesShape: ['object', 'list'],
};

export function serviceVariant(text = process.env.ASSET_SYNC_SERVICE_VARIANT ?? ''): Partial<ServiceOptions> {
  const options: Record<string, string> = {};
  for (const pair of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name = '', value = ''] = pair.split('=');
    const allowed = VARIANTS[name];
    if (!allowed?.includes(value)) throw new Error(`ASSET_SYNC_SERVICE_VARIANT: "${pair}" is not one of ${Object.entries(VARIANTS).map(([n, v]) => `${n}=${v.join('|')}`).join(', ')}`);
    options[name] = value;
  }
  return options as Partial<ServiceOptions>;
}
