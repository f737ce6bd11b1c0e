/**
 * Where the renderer comes from: the `app://asset-sync` origin serving dist/renderer, or the Vite
 * dev server during development. Navigation and IPC are allowed from that origin only.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'asset-sync';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/**
 * `scheme://host[:port]` of a URL, or null for URLs without a real origin (file:, data:,
 * about:). URL.origin says "null" for custom schemes, so the origin is assembled here.
 */
export function originOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.origin;
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host !== '') return `${parsed.protocol}//${parsed.host}`;
  return null;
}

/** The renderer's address and origin: the dev server when `devServerUrl` is given, else app://. */
export function rendererTarget(devServerUrl: string | undefined): { url: string; origin: string } {
  const devOrigin = devServerUrl ? originOf(devServerUrl) : null;
  if (devServerUrl && devOrigin) return { url: devServerUrl, origin: devOrigin };
  return { url: APP_URL, origin: APP_ORIGIN };
}
