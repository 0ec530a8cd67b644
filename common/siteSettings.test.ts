import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SETTERS, SETTING_GROUPS, SETTING_LIST, SETTING_TYPES, SITE_SETTINGS, envReader, isSecretSetting, settingProblem, settingsProblems, siteSettings } from './siteSettings';
import { settingsMarkdown } from './siteSettingsDoc';

const site = (env: Record<string, string>) => ({ settings: { env: Object.entries(env).map(([key, value]) => ({ key, value })) } });

describe('the settings registry', () => {
  it('every entry is complete: an upper-case key, a known type, group and setter, one line of help', () => {
    const entry = z.object({
      key: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
      type: z.enum(SETTING_TYPES),
      group: z.enum(Object.keys(SETTING_GROUPS) as [keyof typeof SETTING_GROUPS]),
      setBy: z.enum(SETTERS),
      secret: z.boolean(),
      help: z.string().min(10).regex(/^[^\n]+$/),
      defaultText: z.string(),
    });
    for (const d of SETTING_LIST) expect(entry.safeParse(d).success, d.key).toBe(true);
    expect(new Set(SETTING_LIST.map((d) => d.key)).size).toBe(Object.keys(SITE_SETTINGS).length);
  });

  it('docs/settings.md is the registry as written by npm run docs:settings', () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'settings.md'), 'utf8');
    expect(doc, 'docs/settings.md is out of date: run npm run docs:settings').toBe(settingsMarkdown());
    for (const d of SETTING_LIST) expect(doc).toContain(`| \`${d.key}\` |`);
  });

  it('HP_AUTO_SEND is a yes/no: 1, true, yes, on (any case) are yes; 0, false, no, off and unset are no; anything else is refused naming it', () => {
    for (const v of ['1', 'true', 'YES', ' on ']) expect(siteSettings(site({ HP_AUTO_SEND: v })).HP_AUTO_SEND, v).toBe(true);
    for (const v of ['0', 'false', 'No', 'off', '']) expect(siteSettings(site({ HP_AUTO_SEND: v })).HP_AUTO_SEND, v).toBe(false);
    expect(siteSettings(site({})).HP_AUTO_SEND).toBe(false);
    expect(settingProblem('HP_AUTO_SEND', 'sometimes')).toMatch(/^HP_AUTO_SEND must be 1, true, yes, on .* \(it is "sometimes"\)$/);
  });

  it('a settings list changed in place is read again, not answered from the last read', () => {
    const s = site({ HP_AUTO_SEND: '0' });
    expect(siteSettings(s).HP_AUTO_SEND).toBe(false);
    s.settings.env[0].value = 'on';
    expect(siteSettings(s).HP_AUTO_SEND).toBe(true);
  });

  it('an unset or unusable value reads as its default; good values typed', () => {
    const none = siteSettings(site({}));
    expect(none.HP_AUTH_SCHEME).toBe('printos');
    expect(none.SHOPIFY_SEND_WHEN).toBe('paid');
    expect(none.SHOPIFY_RECONCILE_MINUTES).toBe(60);
    expect(none.HP_POLL_AFTER_MINUTES).toBeNull();
    expect(none.RE_TOKEN_URL).toBe('https://oauth2.sky.blackbaud.com/token');
    const set = siteSettings(site({ HP_AUTH_SCHEME: 'OneFlow', SHOPIFY_RECONCILE_MINUTES: '0', HP_POLL_AFTER_MINUTES: '3', PIPELINE_SEND_ECARD: '1', SHOPIFY_SEND_WHEN: 'created' }));
    expect(set.HP_AUTH_SCHEME).toBe('oneflow');
    expect(set.SHOPIFY_RECONCILE_MINUTES).toBe(0);
    expect(set.HP_POLL_AFTER_MINUTES).toBeNull();
    expect(set.PIPELINE_SEND_ECARD).toBe(true);
    expect(set.SHOPIFY_SEND_WHEN).toBe('created');
  });

  it('secrets are the registry\'s; an admin\'s own variable is secret when its name says so', () => {
    for (const d of SETTING_LIST) expect(isSecretSetting(d.key), d.key).toBe(d.secret);
    expect(isSecretSetting('MY_API_KEY')).toBe(true);
    expect(isSecretSetting('shop_password')).toBe(true);
    expect(isSecretSetting('SHOP_DOMAIN')).toBe(false);
    expect(isSecretSetting('SMTP_URL')).toBe(false);
  });

  it('a save is checked value by value where it changed, and by the group rules on every value, each problem naming its key', () => {
    const bad = { HP_AUTH_SCHEME: 'sha1', SHOPIFY_AUTH: 'password', ADESTRA_BUYERS_LIST_ID: 'buyers', PREFLIGHT_MIN_PPI_ERROR: 'lots', CUSTOM_THING: 'anything' };
    const problems = settingsProblems(envReader(site(bad).settings.env));
    expect(problems).toEqual([
      'HP_AUTH_SCHEME must be printos or oneflow (it is "sha1")',
      'SHOPIFY_AUTH must be one of client_credentials, authorization_code, static_token (it is "password")',
      'ADESTRA_BUYERS_LIST_ID: "buyers" is not a list id (digits).',
      'PREFLIGHT_MIN_PPI_ERROR: "lots" is not a whole number of ppi (e.g. 150).',
    ]);
    // Saved before, unchanged now: left for the admin to fix when they touch it (group rules still apply).
    const unchanged = settingsProblems(envReader(site(bad).settings.env), envReader(site(bad).settings.env));
    expect(unchanged).toEqual(['PREFLIGHT_MIN_PPI_ERROR: "lots" is not a whole number of ppi (e.g. 150).']);
    expect(settingsProblems(envReader(site({ HP_AUTO_SEND: 'on', SMTP_URL: 'smtp://mail.example.org:587', CUSTOM: 'x' }).settings.env))).toEqual([]);
  });
});
