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
    for (const resource of ['sites', 'users', 'all-orders', 'hp-data', 'stores']) {
      expect(canAccess('user', { resource, action: 'list' })).toBe(false);
      expect(canAccess('user', { resource, action: 'edit' })).toBe(false);
    }
  });

  it('lets a non-admin use their own orders and designs', () => {
    expect(canAccess('user', { resource: 'orders', action: 'list' })).toBe(true);
    expect(canAccess('user', { resource: 'check-order', action: 'list' })).toBe(true);
    // Spec §6: the manual send needs a signed-in user; only the menu keeps it to admins (spec §2).
    expect(canAccess('user', { resource: 'send-hp-manually', action: 'list' })).toBe(true);
    expect(canAccess('user', { resource: 'designs', action: 'list' })).toBe(true);
    // The sync screen: the site's feature decides (menu and screen), the server enforces it.
    expect(canAccess('user', { resource: 're-n-adestra-sync', action: 'list' })).toBe(true);
  });

  it('denies everything without a role', () => {
    expect(canAccess(null, { resource: 'designs', action: 'list' })).toBe(false);
    expect(canAccess(undefined, { resource: 'orders', action: 'list' })).toBe(false);
  });

  it('lets only an admin or the creator save or delete a design', () => {
    const design = { createdByUserId: 2 };
    expect(canAccess('user', { resource: 'designs', action: 'edit', record: design }, 2)).toBe(true);
    expect(canAccess('user', { resource: 'designs', action: 'delete', record: design }, 2)).toBe(true);
    expect(canAccess('user', { resource: 'designs', action: 'edit', record: design }, 3)).toBe(false);
    expect(canAccess('user', { resource: 'designs', action: 'delete', record: design }, 3)).toBe(false);
    expect(canAccess('user', { resource: 'designs', action: 'edit', record: { createdByUserId: null } }, 3)).toBe(false);
    expect(canAccess('admin', { resource: 'designs', action: 'delete', record: design }, 9)).toBe(true);
    expect(canAccess('user', { resource: 'designs', action: 'show', record: design }, 3)).toBe(true);
  });

  it('lets a non-admin use the print screens', () => {
    for (const resource of ['print-jobs', 'print-history', 'reports', 'sample-uploading']) {
      expect(canAccess('user', { resource, action: 'list' })).toBe(true);
    }
  });
});
