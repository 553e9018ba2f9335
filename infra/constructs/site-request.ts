/**
 * How the site's distribution routes a viewer's request, declared once: the CloudFront Function
 * every behaviour runs on viewer request (site-stack.ts), and the local stack's web servers,
 * which run the same code (infra/local/web-preview.ts, infra/local/dev.ts).
 *
 * - Under API_PATH the request goes to the HTTP API with the prefix taken off: the web app
 *   calls its API on its own origin, so no request needs a CORS preflight or a second
 *   connection (docs/decisions/0161-the-web-app-calls-its-api-on-the-sites-origin.md).
 * - A path whose last segment has no dot is one of the app's own routes (/jobs/123): it is
 *   answered with index.html. This replaces the distribution's error responses, which would
 *   also turn the API's own 403 and 404 answers into the page.
 */

/** Where the site's origin serves the HTTP API. */
export const API_PATH = '/api';

/**
 * The function's code, for the cloudfront-js-2.0 runtime (ES5 and a few ES6 features, no
 * modules): `handler` rewrites the request's URI and returns the request.
 */
export const SITE_REQUEST_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.indexOf('${API_PATH}/') === 0) {
    request.uri = uri.slice(${API_PATH.length});
  } else if (uri.slice(uri.lastIndexOf('/') + 1).indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;

type SiteRequestHandler = (event: { request: { uri: string } }) => { uri: string };

let handler: SiteRequestHandler | undefined;

/** What the function makes of a request's path (without its query string): the URI the origin is asked for. */
export function routeSiteRequest(path: string): string {
  // The same source the distribution runs, compiled once here.
  handler ??= new Function(`${SITE_REQUEST_FUNCTION_CODE}\nreturn handler;`)() as SiteRequestHandler;
  return handler({ request: { uri: path } }).uri;
}

/** Whether a request's path goes to the HTTP API. */
export const isApiPath = (path: string): boolean => path.startsWith(`${API_PATH}/`);
