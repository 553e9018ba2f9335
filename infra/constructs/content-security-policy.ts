/**
 * The web app's content security policy, declared once. The site stack sends it as a header
 * before the APIs exist, so there every host of a later stack is named by its scheme only; the
 * web stack writes the same policy, with this deployment's exact hosts, into index.html. A
 * browser enforces both, so the page gets the narrower of each.
 */

/**
 * Stripe.js's hosts, as Stripe's integration security guide lists them for a content security
 * policy: the script and its frames on js.stripe.com and its subdomains (the Payment Element's
 * frames), 3-D Secure's redirects on hooks.stripe.com, and its API; and Identity's verification
 * modal (issue 47), which frames the session's flow from verify.stripe.com (where a
 * VerificationSession's `url` leads).
 */
export const STRIPE_JS_SOURCES = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://verify.stripe.com'],
  connect: ['https://api.stripe.com'],
} as const;

/** The hosts of this deployment the page talks to, beside its own origin (which serves the HTTP API too). */
export interface PolicyHosts {
  readonly webSocketApi: string;
  /** Cognito's user pool API (sign-in, tokens). */
  readonly cognito: string;
  /** Where images are uploaded to (the bucket) and shown from (the CDN). */
  readonly imageUploads: string;
  readonly images: string;
  /** Amazon Location's maps (issue 46): the style, tiles, fonts and sprites of the search results' map. */
  readonly maps: string;
}

/** The hosts as the header names them: by scheme, since none exists when the site stack is deployed. */
export const HEADER_HOSTS: PolicyHosts = { webSocketApi: 'wss:', cognito: 'https:', imageUploads: 'https:', images: 'https:', maps: 'https:' };

/** Directives only a header can carry (a meta policy ignores them). */
const HEADER_ONLY_DIRECTIVES = { 'frame-ancestors': ["'none'"] };

function directives(hosts: PolicyHosts): Record<string, readonly string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...STRIPE_JS_SOURCES.script],
    'style-src': ["'self'"],
    // blob: for previews of images before they are uploaded.
    'img-src': ["'self'", 'data:', 'blob:', hosts.images, hosts.maps],
    'connect-src': ["'self'", hosts.webSocketApi, hosts.cognito, ...STRIPE_JS_SOURCES.connect, hosts.imageUploads, hosts.maps],
    'frame-src': [...STRIPE_JS_SOURCES.frame],
    // The service worker that shows web pushes (web/public/service-worker.js) and the map's worker (MapLibre), from the site only.
    'worker-src': ["'self'"],
    'form-action': ["'self'", hosts.imageUploads],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
  };
}

const render = (policy: Record<string, readonly string[]>) =>
  Object.entries(policy)
    .map(([directive, sources]) => `${directive} ${[...new Set(sources)].join(' ')}`)
    .join('; ');

/** The header the site's distribution sends with every page. */
export const SITE_HEADER_CSP = render({ ...directives(HEADER_HOSTS), ...HEADER_ONLY_DIRECTIVES });

/** The policy index.html carries, naming this deployment's hosts. */
export const pageContentSecurityPolicy = (hosts: PolicyHosts): string => render(directives(hosts));

