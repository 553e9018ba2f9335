import { describe, expect, it } from 'vitest';
import { mainNavItems, mobileMenuItems, unreadBadgeText, userMenuItems } from '../../web/src/lib/navigation.js';

const labels = (items: Array<{ label: string }>) => items.map((item) => item.label);

describe('the header navigation per role (spec 1 §2)', () => {
  it('caps the unread badge at 99+ and hides it at zero', () => {
    expect(unreadBadgeText(0)).toBeNull();
    expect(unreadBadgeText(1)).toBe('1');
    expect(unreadBadgeText(99)).toBe('99');
    expect(unreadBadgeText(100)).toBe('99+');
  });

  it('gives each role its header links', () => {
    expect(labels(mainNavItems(false, null))).toEqual(['Find Jobs', 'Post Job']);
    expect(labels(mainNavItems(true, { role: 'poster' }))).toEqual(['Dashboard', 'Post Job']);
    expect(labels(mainNavItems(true, { role: 'worker' }))).toEqual(['Find Jobs', 'Dashboard']);
    expect(mainNavItems(true, { role: 'worker' }).find((item) => item.label === 'Dashboard')?.to).toBe('/worker-dashboard');
    // A worker's open-jobs board is a section of their dashboard.
    expect(mainNavItems(true, { role: 'worker' }).find((item) => item.label === 'Find Jobs')?.to).toBe('/worker-dashboard#available-jobs');
  });

  it('lists My Earnings for workers only and Admin Dashboard for the admin only', () => {
    expect(labels(userMenuItems({ role: 'worker' }))).toEqual(['Profile', 'Dashboard', 'My Earnings', 'Messages', 'Notification Settings']);
    expect(labels(userMenuItems({ role: 'poster' }))).toEqual(['Profile', 'Dashboard', 'Messages', 'Notification Settings']);
    expect(labels(userMenuItems({ role: 'admin' }))).toEqual(['Profile', 'Messages', 'Notification Settings', 'Admin Dashboard']);
  });

  it('puts the admin sections in the admin mobile menu and the /signin and /signup aliases in the visitor one', () => {
    expect(mobileMenuItems(true, { role: 'admin' }).map((item) => item.to)).toEqual([
      '/admin-dashboard',
      '/dashboard',
      '/admin/users',
      '/admin/jobs',
      '/admin/categories',
      '/admin/reports',
      '/profile',
      '/notification-settings',
    ]);
    expect(mobileMenuItems(true, { role: 'worker' }).some((item) => item.to.startsWith('/admin'))).toBe(false);
    // Find Jobs takes a worker to the board on their dashboard, from every menu.
    expect(mobileMenuItems(true, { role: 'worker' }).find((item) => item.label === 'Find Jobs')?.to).toBe('/worker-dashboard#available-jobs');
    expect(mobileMenuItems(false, null).map((item) => item.to)).toEqual(['/#jobs', '/post-job', '/signin', '/signup']);
  });
});
