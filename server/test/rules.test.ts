// The pure rules, without HTTP or a database.
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../src/http/types';
import { MASK, isSecretKey, maskEnv, mergeMaskedEnv } from '../src/lib/secrets';
import { DEFAULT_PERMISSION, canOnRecord } from '../src/modules/auth/permissions';
import { secondsToWait } from '../src/modules/auth/throttle';
import { bearerToken, signToken, verifyToken } from '../src/modules/auth/tokens';
import { buildKey, signGrant, verifyGrant, type UploadGrant } from '../src/modules/uploads/signing';
import { matchesType } from '../src/modules/uploads/sniff';
import { perSiteKeyOf, printFileKey } from '../src/modules/uploads/keys';

const actor = (id: number, role: 'admin' | 'user', siteId: number): Actor => ({ id, role, siteId, firstName: 'F', lastName: 'L', email: `${id}@example.com` });

describe('canOnRecord', () => {
  const admin = actor(1, 'admin', 1);
  const owner = actor(2, 'user', 1);
  const colleague = actor(3, 'user', 1);
  const stranger = actor(4, 'user', 2);
  const record = (perm: Partial<typeof DEFAULT_PERMISSION> = {}) => ({ siteId: 1, userId: 2, publicPermission: { ...DEFAULT_PERMISSION, ...perm } });
  const actions = ['read', 'update', 'delete'] as const;

  it('an admin may do anything, on any site, whatever the flags', () => {
    const closed = { siteId: 9, userId: 2, publicPermission: { create: false, read: false, update: false, delete: false } };
    for (const a of actions) expect(canOnRecord(admin, closed, a)).toBe('yes');
  });

  it('the creator may do anything with their record, whatever the flags', () => {
    const closed = record({ read: false, update: false, delete: false });
    for (const a of actions) expect(canOnRecord(owner, closed, a)).toBe('yes');
  });

  it('a user of another site: not found, for every action and every flag', () => {
    const open = record({ read: true, update: true, delete: true });
    for (const a of actions) expect(canOnRecord(stranger, open, a)).toBe('not-found');
  });

  it('another user of the site gets what the flags grant: hidden when unreadable, forbidden otherwise', () => {
    expect(canOnRecord(colleague, record(), 'read')).toBe('yes');
    expect(canOnRecord(colleague, record(), 'update')).toBe('yes');
    expect(canOnRecord(colleague, record(), 'delete')).toBe('forbidden');
    expect(canOnRecord(colleague, record({ read: false }), 'read')).toBe('not-found');
    expect(canOnRecord(colleague, record({ update: false }), 'update')).toBe('forbidden');
    expect(canOnRecord(colleague, record({ delete: true }), 'delete')).toBe('yes');
  });

  it('a record without a creator is nobody’s own', () => {
    const orphan = { siteId: 1, userId: null, publicPermission: { ...DEFAULT_PERMISSION, update: false } };
    expect(canOnRecord(owner, orphan, 'update')).toBe('forbidden');
    expect(canOnRecord(owner, orphan, 'read')).toBe('yes');
  });

  it('defaults: others may create, read and update, not delete', () => {
    expect(DEFAULT_PERMISSION).toEqual({ create: true, read: true, update: true, delete: false });
  });
});

describe('secondsToWait (the sign-in throttle rule)', () => {
  const t0 = 1_700_000_000_000;

  it('lets attempts through below the limit', () => {
    expect(secondsToWait([], 3, 60, t0)).toBe(0);
    expect(secondsToWait([t0 - 1_000, t0 - 2_000], 3, 60, t0)).toBe(0);
  });

  it('at the limit, asks to wait until the oldest of the newest `limit` failures leaves the window', () => {
    const failures = [t0 + 20_000, t0 + 10_000, t0];
    expect(secondsToWait(failures, 3, 60, t0 + 20_000)).toBe(40);
    expect(secondsToWait(failures, 3, 60, t0 + 59_500)).toBe(1);
    // More failures than the limit: the newest `limit` decide, not the oldest.
    expect(secondsToWait([t0 + 30_000, ...failures], 3, 60, t0 + 30_000)).toBe(40);
  });
});

describe('settings.env secrets', () => {
  it.each([
    ['API_KEY', true],
    ['shopify_secret', true],
    ['AccessToken', true],
    ['db_password', true],
    ['SHOP_DOMAIN', false],
    ['BASE_URL', false],
  ])('isSecretKey(%s) = %s', (key, secret) => {
    expect(isSecretKey(key)).toBe(secret);
  });

  it('maskEnv masks secret values (not empty ones) and leaves the rest', () => {
    const env = [
      { key: 'API_KEY', value: 'k' },
      { key: 'EMPTY_SECRET', value: '' },
      { key: 'HOST', value: 'h' },
    ];
    expect(maskEnv(env)).toEqual([
      { key: 'API_KEY', value: MASK },
      { key: 'EMPTY_SECRET', value: '' },
      { key: 'HOST', value: 'h' },
    ]);
    expect(env[0].value).toBe('k');
    expect(MASK).toBe('********');
  });

  it('mergeMaskedEnv: mask means unchanged, new values win, removed keys go, masked new keys are reported', () => {
    const stored = [
      { key: 'API_KEY', value: 'old-key' },
      { key: 'TOKEN', value: 'old-token' },
      { key: 'GONE', value: 'x' },
    ];
    const { env, unknownMasked } = mergeMaskedEnv(
      [
        { key: 'API_KEY', value: MASK },
        { key: 'TOKEN', value: 'new-token' },
        { key: 'NEW_SECRET', value: MASK },
      ],
      stored,
    );
    expect(env.slice(0, 2)).toEqual([
      { key: 'API_KEY', value: 'old-key' },
      { key: 'TOKEN', value: 'new-token' },
    ]);
    expect(env.map((v) => v.key)).not.toContain('GONE');
    expect(unknownMasked).toEqual(['NEW_SECRET']);
  });

  it('round trip: what maskEnv shows, sent back, restores the stored env', () => {
    const stored = [
      { key: 'API_KEY', value: 'k' },
      { key: 'HOST', value: 'h' },
    ];
    expect(mergeMaskedEnv(maskEnv(stored), stored)).toEqual({ env: stored, unknownMasked: [] });
  });
});

describe('upload signing', () => {
  const now = new Date('2026-01-02T03:04:05.000Z');
  const secret = 'upload-secret';
  const grant: UploadGrant = { key: 'logos/1-abc-My-Logo.png', contentType: 'image/png', expires: 1_900_000_000, userId: 3, siteId: 1 };

  it('buildKey: site + folder + timestamp + random + safe name', () => {
    const key = buildKey('Logos/Brand Kit/My Logo (final).png', now, 7);
    expect(key).toMatch(new RegExp(`^7/logos/brand-kit/${now.getTime()}-[0-9a-f]{24}-My-Logo-final-\\.png$`));
    expect(buildKey('My Logo.png', now, 7)).toMatch(/^7\/uploads\/\d+-[0-9a-f]{24}-My-Logo\.png$/);
    expect(buildKey('My Logo.png', now, null)).toMatch(/^shared\/uploads\//);
    expect(buildKey('a.png', now, 7)).not.toBe(buildKey('a.png', now, 7));
  });

  it('perSiteKeyOf: where a file of the former layout (no site first) lives once migrated', () => {
    expect(perSiteKeyOf('logos/1-aa-logo.png', 3)).toBe('3/logos/1-aa-logo.png');
    expect(perSiteKeyOf('renders/1-aa-card-page-1.png', null)).toBe('shared/renders/1-aa-card-page-1.png');
    expect(perSiteKeyOf('print-files/3/abc/print-file.pdf', 3)).toBe('3/print-files/abc/print-file.pdf');
    expect(perSiteKeyOf('3/logos/1-aa-logo.png', 3)).toBeNull();
    expect(perSiteKeyOf('shared/renders/1-aa-x.png', null)).toBeNull();
    expect(printFileKey(3, 'abc', 'print-file.pdf')).toBe('3/print-files/abc/print-file.pdf');
  });

  it.each(['../../etc/passwd', '..', '../', 'a/./../b/../../c.png', '.hidden', '...', 'x/..\\..\\y', '   ', '//'])('buildKey(%j) stays inside the store', (p) => {
    const key = buildKey(p, now, 1);
    expect(key.split('/')).not.toContain('..');
    expect(key.split('/')).not.toContain('.');
    expect(key).not.toMatch(/^\/|\\|\/\/|\.\./);
    expect(key.split('/').pop()).toMatch(/^\d+-[0-9a-f]{24}-[\w][\w.-]*$/);
  });

  it('buildKey keeps at most four folders and 100 characters of the name', () => {
    const key = buildKey(`a/b/c/d/e/f/${'n'.repeat(300)}.png`, now, 1);
    expect(key.split('/').slice(0, -1)).toEqual(['1', 'a', 'b', 'c', 'd']);
    expect(key.split('/').pop()!.length).toBeLessThanOrEqual(100 + 40);
    expect(key.endsWith('.png')).toBe(true);
  });

  it('verifyGrant accepts its own signature and refuses any change', () => {
    const sig = signGrant(secret, grant);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyGrant(secret, grant, sig)).toBe(true);
    expect(verifyGrant('other-secret', grant, sig)).toBe(false);
    for (const change of [{ key: 'logos/other.png' }, { contentType: 'image/gif' }, { expires: grant.expires + 1 }, { userId: 4 }, { siteId: 2 }]) {
      expect(verifyGrant(secret, { ...grant, ...change }, sig)).toBe(false);
    }
    expect(verifyGrant(secret, grant, sig.toUpperCase())).toBe(false);
    expect(verifyGrant(secret, grant, sig.slice(0, 63))).toBe(false);
    expect(verifyGrant(secret, grant, '')).toBe(false);
    expect(verifyGrant(secret, grant, `${sig}00`)).toBe(false);
  });

  it('matchesType checks the first bytes', () => {
    expect(matchesType('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(true);
    expect(matchesType('image/png', Buffer.from('<svg onload=alert(1)>'))).toBe(false);
    expect(matchesType('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);
    expect(matchesType('application/pdf', Buffer.from('%PDF-1.7'))).toBe(true);
    expect(matchesType('application/pdf', Buffer.from('<html>'))).toBe(false);
    expect(matchesType('text/csv', Buffer.from('a,b'))).toBe(true);
    expect(matchesType('text/csv', Buffer.from([0x61, 0x00, 0x62]))).toBe(false);
  });
});

describe('tokens', () => {
  const settings = { secret: 'token-secret-that-is-long-enough-0123456789', expiresIn: '12h' };
  const now = () => new Date();

  it('verifyToken accepts a token of signToken: user, id and expiry', () => {
    const token = signToken(settings, 7);
    const v = verifyToken(settings, token, now());
    expect(v).not.toBeNull();
    expect(v!.userId).toBe(7);
    expect(v!.jti).toMatch(/^[0-9a-f]{32}$/);
    expect(Math.abs(v!.expiresAt.getTime() - (Date.now() + 12 * 3600_000))).toBeLessThan(5000);
    expect(verifyToken(settings, signToken(settings, 7), now())!.jti).not.toBe(v!.jti);
  });

  it('verifyToken uses the given time for expiry', () => {
    const token = signToken({ ...settings, expiresIn: '1m' }, 7);
    expect(verifyToken(settings, token, new Date(Date.now() + 30_000))).not.toBeNull();
    expect(verifyToken(settings, token, new Date(Date.now() + 61_000))).toBeNull();
  });

  it('verifyToken refuses other keys, other algorithms, and tokens without sub/jti/exp', () => {
    const base = { subject: '7', jwtid: 'j', expiresIn: '1h' } as const;
    expect(verifyToken(settings, jwt.sign({}, 'another-key', { ...base, algorithm: 'HS256' }), now())).toBeNull();
    expect(verifyToken(settings, jwt.sign({}, settings.secret, { ...base, algorithm: 'HS512' }), now())).toBeNull();
    expect(verifyToken(settings, jwt.sign({}, '', { ...base, algorithm: 'none' }), now())).toBeNull();
    expect(verifyToken(settings, jwt.sign({}, settings.secret, { jwtid: 'j', expiresIn: '1h' }), now())).toBeNull();
    expect(verifyToken(settings, jwt.sign({}, settings.secret, { subject: '7', expiresIn: '1h' }), now())).toBeNull();
    expect(verifyToken(settings, jwt.sign({}, settings.secret, { subject: '7', jwtid: 'j' }), now())).toBeNull();
    expect(verifyToken(settings, jwt.sign({}, settings.secret, { ...base, subject: '0' }), now())).toBeNull();
    expect(verifyToken(settings, jwt.sign({}, settings.secret, { ...base, subject: 'x7' }), now())).toBeNull();
    expect(verifyToken(settings, 'garbage', now())).toBeNull();
    expect(verifyToken(settings, jwt.sign({}, settings.secret, { ...base, notBefore: '1h' }), now())).toBeNull();
  });

  it('bearerToken reads only "Bearer <token>"', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer   abc')).toBe('abc');
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
  });
});
