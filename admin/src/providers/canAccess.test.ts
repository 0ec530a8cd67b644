import { describe, expect, it } from 'vitest';
import { canAccess } from './canAccess';

describe('canAccess', () => {
  it('lets an admin do everything, including site and user administration', () => {
    for (const action of ['list', 'edit', 'create', 'delete']) {
      expect(canAccess('admin', { resource: 'sites', action })).toBe(true);
      expect(canAccess('admin', { resource: 'users', action })).toBe(true);
    }
    expect(canAccess('admin', { resource: 'all-orders', action: 'list' })).toBe(true);
    expect(canAccess('admin', { resource: 'designs', action: 'list' })).toBe(true);
  });

  it('keeps a non-admin out of sites, users and cross-client screens', () => {
    for (const resource of ['sites', 'users', 'all-orders', 'hp-data', 're-n-adestra-sync', 'send-hp-manually']) {
      expect(canAccess('user', { resource, action: 'list' })).toBe(false);
      expect(canAccess('user', { resource, action: 'edit' })).toBe(false);
    }
  });

  it('lets a non-admin use their own orders and designs', () => {
    expect(canAccess('user', { resource: 'orders', action: 'list' })).toBe(true);
    expect(canAccess('user', { resource: 'designs', action: 'list' })).toBe(true);
  });

  it('denies everything without a role', () => {
    expect(canAccess(null, { resource: 'designs', action: 'list' })).toBe(false);
    expect(canAccess(undefined, { resource: 'orders', action: 'list' })).toBe(false);
  });
});
