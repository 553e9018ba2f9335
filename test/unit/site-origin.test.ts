import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENV } from '../../functions/routes.js';
import { appOrigin } from '../../functions/money/payment-accounts.js';

describe("where Stripe's onboarding returns to", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("is the site's origin in AWS, whatever Origin a caller sends", () => {
    vi.stubEnv(ENV.siteOrigin, 'https://d111111abcdef8.cloudfront.net');
    expect(appOrigin('https://evil.example')).toBe('https://d111111abcdef8.cloudfront.net');
    expect(appOrigin(undefined)).toBe('https://d111111abcdef8.cloudfront.net');
  });

  it("is the page's own origin locally, http(s) only", () => {
    vi.stubEnv(ENV.siteOrigin, '');
    expect(appOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(() => appOrigin('javascript:alert(1)')).toThrow('A valid Origin header is required');
    expect(() => appOrigin(undefined)).toThrow('A valid Origin header is required');
  });
});
