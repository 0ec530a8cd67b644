import { describe, expect, it } from 'vitest';
import { loginUrlFor, safeRedirectTarget } from './redirect';

describe('safeRedirectTarget', () => {
  it('keeps same-origin relative paths with their query string', () => {
    expect(safeRedirectTarget('/sites/3?tab=users')).toBe('/sites/3?tab=users');
    expect(safeRedirectTarget('/orders')).toBe('/orders');
  });

  it.each([
    ['//evil.com'],
    ['//evil.com/path'],
    ['/\\evil.com'],
    ['https://evil.com'],
    ['http://evil.com/sites'],
    ['javascript:alert(1)'],
    ['evil.com'],
    ['/\t/evil.com'],
    [''],
    [null],
  ])('refuses %j and goes home', (raw) => {
    expect(safeRedirectTarget(raw)).toBe('/');
  });
});

describe('loginUrlFor', () => {
  it('encodes the path and search to come back to', () => {
    expect(loginUrlFor('/sites/3?tab=users')).toBe('/login?redirect=%2Fsites%2F3%3Ftab%3Dusers');
  });
  it('adds no redirect for home or the login page itself', () => {
    expect(loginUrlFor('/')).toBe('/login');
    expect(loginUrlFor('/login?redirect=%2Fsites')).toBe('/login');
  });
  it("keeps a client's site slug, so the sign-in page stays branded", () => {
    expect(loginUrlFor('/login?site=hope-harbour')).toBe('/login?site=hope-harbour');
    expect(loginUrlFor('/orders?site=hope-harbour')).toBe('/login?site=hope-harbour&redirect=%2Forders%3Fsite%3Dhope-harbour');
  });
});
