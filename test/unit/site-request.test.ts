import { describe, expect, it } from 'vitest';
import { API_PATH, isApiPath, routeSiteRequest } from '../../infra/constructs/site-request.js';

describe("the site's request routing (the distribution's viewer-request function)", () => {
  it('takes the API prefix off, so the HTTP API sees its declared paths', () => {
    expect(API_PATH).toBe('/api');
    expect(routeSiteRequest('/api/jobs/b9fa2666')).toBe('/jobs/b9fa2666');
    expect(routeSiteRequest('/api/me/notifications/unread-count')).toBe('/me/notifications/unread-count');
    // A dot in an API path is still the API's (an id or a file name is the route's business).
    expect(routeSiteRequest('/api/uploads/photo.jpg')).toBe('/uploads/photo.jpg');
    expect(routeSiteRequest('/api/')).toBe('/');
    expect(isApiPath('/api/jobs')).toBe(true);
  });

  it("answers the app's own routes with index.html", () => {
    for (const route of ['/', '/jobs/b9fa2666', '/worker-dashboard', '/real-time-messages/c1', '/api', '/apiary/x']) {
      expect(routeSiteRequest(route), route).toBe('/index.html');
      expect(isApiPath(route), route).toBe(false);
    }
  });

  it("leaves the site's files as they are, a missing one included (its 403, not the page)", () => {
    for (const file of ['/config.json', '/assets/index-abc123.js', '/service-worker.js', '/favicon.svg', '/assets/gone-1234.js']) {
      expect(routeSiteRequest(file), file).toBe(file);
    }
  });
});
