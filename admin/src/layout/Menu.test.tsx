import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { ADMIN, renderInAdmin, signIn, fakeFetch, jsonResponse, USER } from '../test/helpers';
import { Menu } from './Menu';
import { MENU, menuEntriesFor } from './menuConfig';

// Print production screens are our addition to the spec's menus (spec §2 lists the others).
// So are the set-up screens of the orders flow (the spec names them without placing them in a menu).
const ADDED = new Set(['Needs attention', 'Jobs', 'Batches', 'Print History', 'Scan station', 'Print Reports', 'Sample Upload', 'Sample Editor', 'Stock', 'Stores', 'Routing', 'Products', 'Resellers', 'Instances', 'Print profiles', 'History', 'API reference']);
const specOnly = (labels: string[]) => labels.filter((label) => !ADDED.has(label));

describe('menuEntriesFor', () => {
  const allReady = MENU.map((entry) => ({ ...entry, ready: true }));

  it('gives the admin menu in the spec order', () => {
    expect(specOnly(menuEntriesFor('admin', { entries: allReady }).map((e) => e.label))).toEqual([
      'List Sites',
      'All list Orders',
      'Data from HP',
      'Product Designs',
      'RE & Adestra Sync',
      'Hood Send HP Manually',
    ]);
  });

  it('gives the non-admin menu: List Orders, Product Designs, then client-specific items of their site only', () => {
    const entries = [
      ...allReady,
      { ...allReady[0], label: 'Hood extras', to: '/hood', resource: 'hood', menus: ['user' as const], siteSlug: 'hood' },
      { ...allReady[0], label: 'Other client', to: '/other', resource: 'other', menus: ['user' as const], siteSlug: 'other' },
    ];
    expect(specOnly(menuEntriesFor('user', { entries, siteSlug: 'hood' }).map((e) => e.label))).toEqual([
      'List Orders',
      'Product Designs',
      'Hood extras',
    ]);
  });

  it('puts Needs attention first, the print screens after List Sites and the sample upload low in the menu, for both roles', () => {
    expect(menuEntriesFor('admin', { entries: allReady }).map((e) => e.label)).toEqual([
      'Needs attention',
      'List Sites',
      'Jobs',
      'Batches',
      'Print History',
      'Scan station',
      'Print Reports',
      'All list Orders',
      'Data from HP',
      'Product Designs',
      'RE & Adestra Sync',
      'Hood Send HP Manually',
      'Sample Upload',
      'Sample Editor',
      'Stock',
      'Stores',
      'Routing',
      'Products',
      'Resellers',
      'Instances',
      'Print profiles',
      'History',
      'API reference',
    ]);
    expect(menuEntriesFor('user', { entries: allReady }).map((e) => e.label)).toEqual([
      'Needs attention',
      'Jobs',
      'Batches',
      'Print History',
      'Scan station',
      'Stock',
      'Print Reports',
      'List Orders',
      'Product Designs',
      'Sample Upload',
      'Sample Editor',
    ]);
  });

  it('shows only screens that exist', () => {
    expect(menuEntriesFor('admin').map((e) => e.label)).toEqual([
      'Needs attention',
      'List Sites',
      'Jobs',
      'Batches',
      'Print History',
      'Scan station',
      'Print Reports',
      'All list Orders',
      'Data from HP',
      'Product Designs',
      'RE & Adestra Sync',
      'Hood Send HP Manually',
      'Sample Upload',
      'Sample Editor',
      'Stock',
      'Stores',
      'Routing',
      'Products',
      'Resellers',
      'Instances',
      'Print profiles',
      'History',
      'API reference',
    ]);
    expect(menuEntriesFor('user').map((e) => e.label)).toEqual(['Needs attention', 'Jobs', 'Batches', 'Print History', 'Scan station', 'Stock', 'Print Reports', 'List Orders', 'Product Designs', 'Sample Upload', 'Sample Editor']);
  });

  it("shows RE & Adestra Sync to a non-admin only when their site has the sync, after Product Designs", () => {
    expect(menuEntriesFor('user', { features: { sync: true } }).map((e) => e.label)).toEqual([
      'Needs attention',
      'Jobs',
      'Batches',
      'Print History',
      'Scan station',
      'Stock',
      'Print Reports',
      'List Orders',
      'Product Designs',
      'RE & Adestra Sync',
      'Sample Upload',
      'Sample Editor',
    ]);
    expect(menuEntriesFor('user', { features: { sync: false } }).map((e) => e.label)).not.toContain('RE & Adestra Sync');
    expect(menuEntriesFor('admin', { features: { sync: false } }).map((e) => e.label)).toContain('RE & Adestra Sync');
  });

  it('groups the set-up screens apart, for admins only', () => {
    expect(menuEntriesFor('admin').filter((e) => e.group === 'setup').map((e) => e.to)).toEqual(['/stock-items', '/stores', '/routing', '/products', '/resellers', '/instances', '/print-profiles', '/history', '/api-reference']);
    expect(menuEntriesFor('user').some((e) => e.group === 'setup')).toBe(false);
  });

  it('gives staff Stock with the floor screens (receiving and counting are floor tasks), admins once under Setup', () => {
    const stockOf = (role: 'admin' | 'user') => menuEntriesFor(role).filter((e) => e.to === '/stock-items');
    expect(stockOf('user')).toEqual([expect.objectContaining({ label: 'Stock', resource: 'stock-items' })]);
    expect(stockOf('user')[0].group).toBeUndefined();
    expect(stockOf('admin')).toEqual([expect.objectContaining({ label: 'Stock', group: 'setup' })]);
    expect(menuEntriesFor(null)).toEqual([]);
  });
});

describe('Menu', () => {
  it('shows staff Stock among the everyday screens, with no Setup group', async () => {
    signIn(USER);
    fakeFetch(() => jsonResponse({ success: true, data: USER }));
    renderInAdmin(<Menu />, { path: '/menu' });
    expect(await screen.findByRole('menuitem', { name: 'Stock' })).toHaveAttribute('href', '/stock-items');
    expect(screen.queryByText('Setup')).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Routing' })).not.toBeInTheDocument();
  });

  it('shows an admin Stock under Setup', async () => {
    signIn(ADMIN);
    fakeFetch(() => jsonResponse({ success: true, data: ADMIN }));
    renderInAdmin(<Menu />, { path: '/menu' });
    expect(await screen.findByRole('menuitem', { name: 'Stock' })).toHaveAttribute('href', '/stock-items');
    expect(screen.getByText('Setup').compareDocumentPosition(screen.getByRole('menuitem', { name: 'Stock' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows List Sites to an admin', async () => {
    signIn(ADMIN);
    fakeFetch(() => jsonResponse({ success: true, data: ADMIN }));
    renderInAdmin(<Menu />, { path: '/menu' });
    expect(await screen.findByRole('menuitem', { name: /List Sites/ })).toHaveAttribute('href', '/sites');
  });

  it('never shows List Sites to a non-admin', async () => {
    signIn(USER);
    fakeFetch(() => jsonResponse({ success: true, data: USER }));
    renderInAdmin(<Menu />, { path: '/menu' });
    expect(await screen.findByRole('menuitem', { name: /Home/ })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('List Sites')).not.toBeInTheDocument());
    // Give permissions time to resolve, then check again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('List Sites')).not.toBeInTheDocument();
  });
});
