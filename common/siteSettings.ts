// The one definition of a site's settings (its settings.env): each key's name, type, default,
// whether it is secret, who sets it, its group and its one-line help. The server reads typed values
// with siteSettings(site) and refuses a save with settingsProblems; the admin's site form draws its
// inputs from it; docs/settings.md is generated from it (npm run docs:settings).
// Keys not listed here may still be kept (an admin's own variables): they are text, and secret when
// their name says so.
import { z } from 'zod';
import { BATCH_SETTING_KEYS, batchSettingsProblem } from './api/batching';
import { PIPELINE_SETTINGS } from './api/pipeline';
import { PREFLIGHT_SETTING_KEYS, ppiSettingsProblem, type SettingReader } from './api/preflight';
import { DEFAULT_SHIP_BY_SETTINGS, SHIP_BY_SETTING_KEYS, SHIPPED_PRODUCT_TYPES, shipBySettingsProblem } from './api/shipBy';
import { DEFAULT_PPI_THRESHOLDS } from './design-doc/resolution';
import { parseMailAddress, smtpUrlProblem } from './mailSettings';

export type { SettingReader };

/** Sections of the site form and of docs/settings.md, in the order they are shown. */
export const SETTING_GROUPS = {
  provider: 'Print provider (HP Site Flow)',
  store: 'Store (Shopify)',
  crm: "CRM (Raiser's Edge, Blackbaud SKY)",
  emailPlatform: 'Email platform (Adestra)',
  pipeline: 'Charity pipeline',
  preflight: 'Print checks',
  printFiles: 'Print files',
  batching: 'Press sheets and batching',
  shipBy: 'Ship-by dates',
  proofs: 'Change window and buyer proofs',
} as const;
export type SettingGroup = keyof typeof SETTING_GROUPS;

/** Who sets a value: an admin on the site form (only admins change sites), or the app itself (tokens it is given, times it records). */
export const SETTERS = ['admin', 'app'] as const;
export type SettingSetter = (typeof SETTERS)[number];

export const SETTING_TYPES = ['text', 'url', 'boolean', 'switch', 'integer', 'choice', 'email', 'mail-server', 'time', 'date-time', 'list'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

/** How the provider's API calls are signed (HP_AUTH_SCHEME). */
export const HP_AUTH_SCHEMES = ['printos', 'oneflow'] as const;
/** How a store's Admin API token is obtained (SHOPIFY_AUTH). */
export const SHOPIFY_AUTHS = ['client_credentials', 'authorization_code', 'static_token'] as const;
/** The Shopify API version used when SHOPIFY_API_VERSION is not set (the schema our documents are tested against). */
export const DEFAULT_SHOPIFY_API_VERSION = '2026-07';
/** Shopify's version names: quarterly `YYYY-MM`, or `unstable`. */
export const isShopifyApiVersion = (v: string) => /^(\d{4}-(0[1-9]|1[0-2])|unstable)$/.test(v);
/** Blackbaud's OAuth token endpoint and authorisation page, used when RE_TOKEN_URL / RE_AUTHORIZE_URL are not set. */
export const SKY_TOKEN_URL = 'https://oauth2.sky.blackbaud.com/token';
export const SKY_AUTHORIZE_URL = 'https://app.blackbaud.com/oauth/authorize';

/** The site setting naming the print profile (by its number) a site's print files carry. */
export const PRINT_OUTPUT_PROFILE = 'PRINT_OUTPUT_PROFILE' as const;

/** The words a yes/no setting (HP_AUTO_SEND) accepts, either case. */
export const YES_WORDS = ['1', 'true', 'yes', 'on'] as const;
export const NO_WORDS = ['0', 'false', 'no', 'off'] as const;

/** One setting. `schema` reads a trimmed, non-empty value; its error says what is wrong, without the key. */
export interface SettingDef<T = unknown> {
  type: SettingType;
  /** The value an unset (or unusable, never saved so) setting reads as. */
  default: T;
  /** The default as a person reads it (the form's placeholder, the doc); '' when there is none. */
  defaultText: string;
  secret: boolean;
  setBy: SettingSetter;
  group: SettingGroup;
  help: string;
  /** The values a `choice` takes. */
  choices?: readonly string[];
  schema: z.ZodType<T, string>;
}

interface Common {
  group: SettingGroup;
  help: string;
  secret?: boolean;
  setBy?: SettingSetter;
}

const quoted = (v: string) => `"${v.length > 60 ? `${v.slice(0, 60)}…` : v}"`;

function def<T>(type: SettingType, c: Common, schema: z.ZodType<T, string>, dflt: T, defaultText: string, choices?: readonly string[]): SettingDef<T> {
  return { type, default: dflt, defaultText, secret: c.secret ?? false, setBy: c.setBy ?? 'admin', group: c.group, help: c.help, schema, ...(choices ? { choices } : {}) };
}

/** A check's answer: the value read, or what is wrong with it. */
type Read<T> = { value: T } | { problem: string };
const fine = <T>(value: T): Read<T> => ({ value });
const problem = (message: string): Read<never> => ({ problem: message });

/** A schema from a check: its problem becomes the schema's error. */
const checked = <T>(read: (v: string) => Read<T>): z.ZodType<T, string> =>
  z.string().transform((v, ctx) => {
    const r = read(v);
    if ('problem' in r) {
      ctx.addIssue({ code: 'custom', message: r.problem });
      return z.NEVER;
    }
    return r.value;
  });

const text = (c: Common & { default?: string }) => def('text', c, z.string(), c.default ?? '', c.default ?? '');

const isHttpUrl = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};
const url = (c: Common & { default?: string }) =>
  def('url', c, checked((v) => (isHttpUrl(v) ? fine(v) : problem(`must be an http(s) URL (it is ${quoted(v)})`))), c.default ?? '', c.default ?? '');

/** Yes/no in any of the usual words (1/0, true/false, yes/no, on/off). */
const flag = (c: Common) =>
  def(
    'boolean',
    c,
    checked((v) => {
      const w = v.toLowerCase();
      if ((YES_WORDS as readonly string[]).includes(w)) return fine(true);
      if ((NO_WORDS as readonly string[]).includes(w)) return fine(false);
      return problem(`must be ${YES_WORDS.join(', ')} (on) or ${NO_WORDS.join(', ')} (off) (it is ${quoted(v)})`);
    }),
    false,
    'off',
  );

/** A switch written 1 (on) or 0 (off), nothing else; `off` says what 0 means. */
const switch01 = (c: Common & { on: string; off: string }) =>
  def('switch', c, checked((v) => (v === '1' ? fine(true) : v === '0' ? fine(false) : problem(`use 1 (${c.on}) or 0 (${c.off}), not ${quoted(v)}.`))), false, '0');

const whole = (c: Common & { min: number; max?: number; unit: string; default?: number; digits?: number }) => {
  const digits = new RegExp(`^\\d{1,${c.digits ?? 6}}$`);
  const range = c.max === undefined ? `${c.min} or more` : `from ${c.min} to ${c.max}`;
  return def(
    'integer',
    c,
    checked((v) => (digits.test(v) && Number(v) >= c.min && (c.max === undefined || Number(v) <= c.max) ? fine<number | null>(Number(v)) : problem(`must be a whole number of ${c.unit}, ${range} (it is ${quoted(v)})`))),
    c.default ?? null,
    c.default === undefined ? '' : String(c.default),
  );
};

const choice = <C extends string>(c: Common & { choices: readonly C[]; default: C | null; lowerCase?: boolean }) => {
  const said = c.choices.length === 2 ? `${c.choices[0]} or ${c.choices[1]}` : `one of ${c.choices.join(', ')}`;
  return def<C | null>(
    'choice',
    c,
    checked<C | null>((v) => {
      const w = c.lowerCase ? v.toLowerCase() : v;
      return (c.choices as readonly string[]).includes(w) ? fine(w as C) : problem(`must be ${said} (it is ${quoted(v)})`);
    }),
    c.default,
    c.default ?? '',
    c.choices,
  );
};

/** A setting whose rule is its group's (press sheets, ship-by, print checks): read as text, checked with the group's rule. */
const ruled = (type: SettingType, c: Common & { default?: string }) => def(type, c, z.string(), c.default ?? '', c.default ?? '');

const provider = { group: 'provider' } as const;
const store = { group: 'store' } as const;
const crm = { group: 'crm' } as const;
const adestra = { group: 'emailPlatform' } as const;
const pipeline = { group: 'pipeline' } as const;
const preflight = { group: 'preflight' } as const;
const batching = { group: 'batching' } as const;
const printFiles = { group: 'printFiles' } as const;
const shipBy = { group: 'shipBy' } as const;
const proofs = { group: 'proofs' } as const;

/** Which lines the buyer approves a proof of before they are made (PROOF_REQUIRED). */
export const PROOF_REQUIRED_CHOICES = ['off', 'personalised', 'all'] as const;
export type ProofRequired = (typeof PROOF_REQUIRED_CHOICES)[number];
/** A time of day, HH:MM (24-hour). */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

const shipByDays = Object.fromEntries(
  SHIPPED_PRODUCT_TYPES.map((t) => [
    SHIP_BY_SETTING_KEYS.productionDays[t],
    ruled('integer', { ...shipBy, default: String(DEFAULT_SHIP_BY_SETTINGS.productionDays[t]), help: `Working days to make and ship a ${t.toLowerCase()}.` }),
  ]),
) as Record<`SHIP_BY_DAYS_${Uppercase<(typeof SHIPPED_PRODUCT_TYPES)[number]>}`, SettingDef<string>>;

export const SITE_SETTINGS = {
  HP_BASE_URL: url({ ...provider, help: 'The provider API host (required to send orders).' }),
  HP_SUBMIT_URL: url({ ...provider, help: 'The order-submission host, when it is not HP_BASE_URL.' }),
  HP_AUTH_SCHEME: choice({ ...provider, choices: HP_AUTH_SCHEMES, default: 'printos', lowerCase: true, help: 'How API calls are signed: printos (PrintOS HMAC) or oneflow (Site Flow).' }),
  HP_API_KEY: text({ ...provider, secret: true, help: 'The API key (required to send orders).' }),
  HP_API_SECRET: text({ ...provider, secret: true, help: 'The API secret (required to send orders).' }),
  HP_SOURCE_ACCOUNT: text({ ...provider, help: 'The account name in the provider\'s cancel paths.' }),
  HP_DESTINATION: text({ ...provider, default: 'presswork', help: 'The destination name orders are sent with.' }),
  HP_CARRIER_ALIAS: text({ ...provider, default: 'standard', help: 'The shipping carrier alias orders are sent with.' }),
  HP_POSTBACK_TOKEN: text({ ...provider, secret: true, help: 'The token the provider\'s status postbacks must carry.' }),
  HP_AUTO_SEND: flag({ ...provider, help: 'Send each paid store order to the provider by itself (1/true/yes/on).' }),
  HP_POLL_AFTER_MINUTES: whole({ ...provider, min: 5, unit: 'minutes', help: 'Ask the provider about an order it has said nothing of for this long (empty: the app\'s default).' }),

  SHOPIFY_SHOP_DOMAIN: text({ ...store, help: 'The store\'s myshopify.com domain (its webhooks are matched by it).' }),
  SHOPIFY_WEBHOOK_SECRET: text({ ...store, secret: true, help: 'The secret the store signs its webhooks with.' }),
  SHOPIFY_WEBHOOK_SECRET_PREVIOUS: text({ ...store, secret: true, help: 'The secret a new one replaced, still accepted while the store switches.' }),
  SHOPIFY_SEND_WHEN: choice({ ...store, choices: ['paid', 'created'] as const, default: 'paid', lowerCase: true, help: 'When a store order may go to print or to the provider: once paid, or as soon as it is created.' }),
  SHOPIFY_AUTH: choice({ ...store, choices: SHOPIFY_AUTHS, default: null, lowerCase: true, help: 'How the Admin API token is obtained (empty: worked out from what is set).' }),
  SHOPIFY_CLIENT_ID: text({ ...store, help: 'The Dev Dashboard app\'s client ID.' }),
  SHOPIFY_CLIENT_SECRET: text({ ...store, secret: true, help: 'The app\'s client secret; it also signs the app\'s webhooks.' }),
  SHOPIFY_CLIENT_SECRET_PREVIOUS: text({ ...store, secret: true, setBy: 'app', help: 'The client secret a rotation replaced (accepted for up to an hour).' }),
  SHOPIFY_PREVIOUS_CLIENT_ACCEPTED_UNTIL: def('date-time', { ...store, setBy: 'app', help: 'Until when the previous client secret is accepted (ISO time).' }, z.string(), '', ''),
  SHOPIFY_ADMIN_TOKEN: text({ ...store, secret: true, help: 'A legacy custom app\'s static Admin API token (shpat_…).' }),
  SHOPIFY_API_VERSION: def(
    'text',
    { ...store, help: 'The Admin API version, YYYY-MM or unstable.' },
    checked((v) => (isShopifyApiVersion(v) ? fine(v) : problem(`must be a version like ${DEFAULT_SHOPIFY_API_VERSION} or unstable (it is ${quoted(v)})`))),
    DEFAULT_SHOPIFY_API_VERSION,
    DEFAULT_SHOPIFY_API_VERSION,
  ),
  SHOPIFY_ADMIN_URL: url({ ...store, help: 'Replaces https://<shop domain> for the Admin API and OAuth (a simulator, tests).' }),
  SHOPIFY_UNINSTALLED_AT: def('date-time', { ...store, setBy: 'app', help: 'When the store said the app was uninstalled: the store is disconnected.' }, z.string(), '', ''),
  SHOPIFY_RECONCILE_MINUTES: whole({ ...store, min: 0, default: 60, unit: 'minutes', help: 'How often missed store orders are looked for (0: never).' }),
  SHOPIFY_RECONCILE_OVERLAP_MINUTES: whole({ ...store, min: 0, default: 10, unit: 'minutes', help: 'How far before the last look the next one starts (the store\'s search lags).' }),
  SHOPIFY_RECONCILE_FIRST_HOURS: whole({ ...store, min: 1, default: 24, unit: 'hours', help: 'How far back the first look for missed orders goes.' }),

  RE_BASE_URL: url({ ...crm, help: 'The SKY API host (with ADESTRA_BASE_URL: the site has the CRM ↔ email sync).' }),
  RE_TOKEN_URL: url({ ...crm, default: SKY_TOKEN_URL, help: 'The OAuth token endpoint.' }),
  RE_AUTHORIZE_URL: url({ ...crm, default: SKY_AUTHORIZE_URL, help: 'The OAuth authorisation page the admin is sent to.' }),
  RE_CLIENT_ID: text({ ...crm, help: 'The SKY application\'s ID.' }),
  RE_CLIENT_SECRET: text({ ...crm, secret: true, help: 'The SKY application\'s secret.' }),
  RE_SUBSCRIPTION_KEY: text({ ...crm, secret: true, help: 'The SKY API subscription key.' }),
  RE_WEBHOOK_KEY: text({ ...crm, secret: true, help: 'The key the CRM\'s webhooks must carry.' }),
  RE_REFRESH_TOKEN: text({ ...crm, secret: true, setBy: 'app', help: 'The CRM\'s rotating refresh token (written when the site is connected).' }),
  RE_CONSENT_SOURCE: text({ ...crm, help: 'One of the CRM\'s consent sources, sent with every consent created (empty: none).' }),
  RE_CONSENT_CATEGORY: text({ ...crm, help: 'One of the CRM\'s consent categories, sent with every consent created (empty: none).' }),
  RE_EMAIL_TYPE: text({ ...crm, default: 'Email', help: 'The code-table entry new e-mail addresses are written with.' }),
  RE_ADDRESS_TYPE: text({ ...crm, default: 'Home', help: 'The code-table entry new addresses are written with.' }),
  RE_NOTE_TYPE: text({ ...crm, default: 'General', help: 'The code-table entry notes are written with.' }),

  ADESTRA_BASE_URL: url({ ...adestra, help: 'The email platform\'s API host.' }),
  ADESTRA_TOKEN: text({ ...adestra, secret: true, help: 'The email platform\'s API token.' }),
  ADESTRA_TABLE_ID: text({ ...adestra, help: 'The contact table contacts are written to.' }),
  ADESTRA_OPTIN_LIST_ID: text({ ...adestra, help: 'The list of contacts who opted in.' }),
  ADESTRA_UNSUB_LIST_ID: text({ ...adestra, help: 'The list of contacts who unsubscribed.' }),
  ADESTRA_BUYERS_LIST_ID: def(
    'integer',
    { ...adestra, help: 'The list buyers who consented are added to (a list id, digits).' },
    checked((v) => (/^\d{1,12}$/.test(v) ? fine(v) : problem(`${quoted(v)} is not a list id (digits).`))),
    '',
    '',
  ),
  ADESTRA_EXPORT_DIR: text({ ...adestra, help: 'The folder export and unsubscribe files are dropped in, under the data folder (default adestra-drop/<slug>).' }),

  [PIPELINE_SETTINGS.addToRaisersEdge]: switch01({ ...pipeline, on: 'run on each paid order', off: 'only on Re-run', help: 'Add each paid order\'s buyer to the CRM by itself.' }),
  [PIPELINE_SETTINGS.addToAdestra]: switch01({ ...pipeline, on: 'run on each paid order', off: 'only on Re-run', help: 'Add each paid order\'s buyer to the email platform by itself.' }),
  [PIPELINE_SETTINGS.sendEcard]: switch01({ ...pipeline, on: 'run on each paid order', off: 'only on Re-run', help: 'E-mail each paid order\'s e-cards by itself.' }),
  SMTP_URL: def(
    'mail-server',
    { ...pipeline, help: 'The site\'s mail server, smtp://host:587 or smtps://user:password@host:465 (empty: the server\'s); its password is masked.' },
    checked((v) => { const p = smtpUrlProblem(v); return p ? problem(p) : fine(v); }),
    '',
    '',
  ),
  ECARD_FROM: def(
    'email',
    { ...pipeline, help: 'The e-cards\' sender: cards@charity.org (sent as the site\'s name) or Charity Cards <cards@charity.org>.' },
    checked((v) => (parseMailAddress(v) ? fine(v) : problem(`${quoted(v)} is not an e-mail address (cards@charity.org, or Charity Cards <cards@charity.org>).`))),
    '',
    '',
  ),

  [PREFLIGHT_SETTING_KEYS.warning]: ruled('integer', { ...preflight, default: String(DEFAULT_PPI_THRESHOLDS.warning), help: 'A photo printed at fewer pixels per inch is flagged.' }),
  [PREFLIGHT_SETTING_KEYS.error]: ruled('integer', { ...preflight, default: String(DEFAULT_PPI_THRESHOLDS.error), help: 'Below this the job is held for a person (at most the warning level).' }),

  PRINT_OUTPUT_PROFILE: def(
    'integer',
    { ...printFiles, help: 'The colour profile this site\'s print files carry as their output intent: a profile\'s number on Print profiles, the site\'s own or one for every site (empty: the instance\'s).' },
    checked((v) => (/^\d{1,12}$/.test(v) && Number(v) > 0 ? fine<number | null>(Number(v)) : problem(`must be a print profile's number (it is ${quoted(v)})`))),
    null,
    '',
  ),

  [BATCH_SETTING_KEYS.sheets]: ruled('list', { ...batching, help: 'The press sheets batches are imposed on: "SRA3 320x450 margin 0; A4 210x297 margin 5" (empty: SRA3, SRA4, A4, A3).' }),
  [BATCH_SETTING_KEYS.gap]: ruled('integer', { ...batching, default: '6', help: 'Millimetres between neighbouring items (crop marks are drawn in it).' }),
  [BATCH_SETTING_KEYS.slug]: ruled('integer', { ...batching, default: '3', help: 'Height in millimetres of the slug strip under each item.' }),
  [BATCH_SETTING_KEYS.duplex]: ruled('choice', { ...batching, default: 'turn', help: 'How a sheet is turned for its back: turn (side to side) or tumble (head to foot).' }),
  [BATCH_SETTING_KEYS.auto]: ruled('switch', { ...batching, default: '0', help: 'Batch approved jobs by themselves: 1 (on) or 0 (off).' }),
  [BATCH_SETTING_KEYS.cutOff]: ruled('time', { ...batching, help: 'HH:MM: filling batches close at this time each day (empty: only when full or printed).' }),
  [BATCH_SETTING_KEYS.sheetsPerBatch]: ruled('integer', { ...batching, default: '50', help: 'A batch made by the rule closes when it holds this many sheets.' }),
  [BATCH_SETTING_KEYS.mugSheets]: ruled('list', { ...batching, help: 'The sublimation sheets mug wraps are imposed on, n-up, as PRESS_SHEETS is written (empty: Sublimation A3+ 329x483, Sublimation A4 210x297).' }),
  [BATCH_SETTING_KEYS.mugMirror]: ruled('switch', { ...batching, default: '0', help: 'The mug printer wants mirrored transfers: 1 draws each wrap back to front on the sheet (its slug stays readable), 0 does not.' }),
  [BATCH_SETTING_KEYS.posterSheets]: ruled('list', { ...batching, help: 'The sheets posters print on, one up on the smallest that holds it (empty: SRA3 320x450, SRA2 450x640).' }),
  [BATCH_SETTING_KEYS.posterRoll]: ruled('integer', { ...batching, default: '0', help: 'The poster printer\'s roll width in mm: a poster no poster sheet holds prints on the roll, cut to its length (0: no roll).' }),

  ...shipByDays,
  [SHIP_BY_SETTING_KEYS.otherDays]: ruled('integer', { ...shipBy, default: String(DEFAULT_SHIP_BY_SETTINGS.otherDays), help: 'Working days for a product whose type is not known.' }),
  [SHIP_BY_SETTING_KEYS.cutoff]: ruled('time', { ...shipBy, default: DEFAULT_SHIP_BY_SETTINGS.cutoff, help: 'The daily cut-off, HH:MM (24-hour) in the shop\'s time zone: orders after it count from the next working day.' }),
  [SHIP_BY_SETTING_KEYS.nonWorkingDays]: ruled('list', { ...shipBy, default: DEFAULT_SHIP_BY_SETTINGS.nonWorkingDays.join(', '), help: 'Weekdays nobody produces or ships (Mon … Sun).' }),
  [SHIP_BY_SETTING_KEYS.holidays]: ruled('list', { ...shipBy, help: 'Days off besides the weekly ones, YYYY-MM-DD, comma-separated.' }),
  [SHIP_BY_SETTING_KEYS.atRiskHours]: ruled('integer', { ...shipBy, default: String(DEFAULT_SHIP_BY_SETTINGS.atRiskHours), help: 'Within this many hours of its ship-by, a line not yet printed is at risk.' }),

  HOLD_MINUTES: whole({ ...proofs, min: 0, max: 10080, unit: 'minutes', help: 'A paid order waits this long before anything is made, so the buyer can still change or cancel it (empty or 0: no window).' }),
  HOLD_UNTIL: def(
    'time',
    { ...proofs, help: 'Instead of HOLD_MINUTES: paid orders wait until this time of day, HH:MM (24-hour) in the shop\'s time zone.' },
    checked((v) => (TIME_OF_DAY.test(v) ? fine(v) : problem(`must be a time of day HH:MM (24-hour, e.g. 16:00) (it is ${quoted(v)})`))),
    '',
    '',
  ),
  HOLD_ONLY_PERSONALISED: flag({ ...proofs, help: 'Only personalised lines wait in the change window; the others are made at once (1/true/yes/on).' }),
  PROOF_REQUIRED: choice({ ...proofs, choices: PROOF_REQUIRED_CHOICES, default: 'off', lowerCase: true, help: 'Which lines the buyer approves a proof of before they are made: off, personalised or all.' }),
  PROOF_FROM: def(
    'email',
    { ...proofs, help: 'The proofs\' sender: proofs@shop.com or Shop Proofs <proofs@shop.com> (empty: ECARD_FROM).' },
    checked((v) => (parseMailAddress(v) ? fine(v) : problem(`${quoted(v)} is not an e-mail address (proofs@shop.com, or Shop Proofs <proofs@shop.com>).`))),
    '',
    '',
  ),
  PROOF_AUTO_APPROVE_HOURS: whole({ ...proofs, min: 1, max: 720, unit: 'hours', help: 'A proof the buyer has not answered is approved by itself after this many hours (empty: the line keeps waiting).' }),
  PROOF_REMINDER_HOURS: whole({ ...proofs, min: 1, max: 720, default: 24, unit: 'hours', help: 'A proof not answered after this many hours is sent again as a reminder, once.' }),
} as const;

export type SiteSettingKey = keyof typeof SITE_SETTINGS;
type ValueOf<D> = D extends SettingDef<infer T> ? T : never;
/** Every known setting of a site, read and typed (unset or unusable: the default). */
export type SiteSettings = { readonly [K in SiteSettingKey]: ValueOf<(typeof SITE_SETTINGS)[K]> };

/** The registry as a list, in the order of the form and the doc. */
export const SETTING_LIST: ReadonlyArray<SettingDef & { key: SiteSettingKey }> = (Object.keys(SITE_SETTINGS) as SiteSettingKey[])
  .map((key) => ({ ...(SITE_SETTINGS[key] as SettingDef), key }))
  .sort((a, b) => Object.keys(SETTING_GROUPS).indexOf(a.group) - Object.keys(SETTING_GROUPS).indexOf(b.group));

export const isSiteSettingKey = (key: string): key is SiteSettingKey => Object.hasOwn(SITE_SETTINGS, key);

/** A secret is masked in every answer: a registry secret, or an admin's own variable whose name says so. */
export const isSecretSetting = (key: string): boolean => (isSiteSettingKey(key) ? SITE_SETTINGS[key].secret : /SECRET|KEY|TOKEN|PASSWORD/i.test(key));

/** What is wrong with one value of a known setting, as a sentence naming the key (undefined: usable, empty, or not a known key). */
export function settingProblem(key: string, value: string | undefined): string | undefined {
  const v = (value ?? '').trim();
  if (!v || !isSiteSettingKey(key)) return undefined;
  const parsed = (SITE_SETTINGS[key] as SettingDef).schema.safeParse(v);
  if (parsed.success) return undefined;
  const message = parsed.error.issues[0]?.message ?? 'is not usable';
  return message.startsWith('must') ? `${key} ${message}` : `${key}: ${message}`;
}

/** The rules that read several settings at once (a threshold against another, a list of sheets), each naming its key. */
const GROUP_RULES: ReadonlyArray<(read: SettingReader) => string | undefined> = [ppiSettingsProblem, batchSettingsProblem, shipBySettingsProblem];

/**
 * What is wrong with settings about to be saved, each sentence naming its key. A single value is
 * checked when it changed from `previous` (a value saved before stays the admin's to fix when they
 * touch it); the group rules read every value, as they always have.
 */
export function settingsProblems(read: SettingReader, previous: SettingReader = () => undefined): string[] {
  const out: string[] = [];
  for (const { key } of SETTING_LIST) {
    const now = (read(key) ?? '').trim();
    if (now === '' || now === (previous(key) ?? '').trim()) continue;
    const p = settingProblem(key, now);
    if (p) out.push(p);
  }
  for (const rule of GROUP_RULES) {
    const p = rule(read);
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/** Every known setting read from a reader: a value that is unset or not usable reads as its default. */
export function settingsOf(read: SettingReader): SiteSettings {
  const out: Record<string, unknown> = {};
  for (const { key, schema, default: dflt } of SETTING_LIST) {
    const v = (read(key) ?? '').trim();
    const parsed = v ? schema.safeParse(v) : undefined;
    out[key] = parsed?.success ? parsed.data : dflt;
  }
  return out as SiteSettings;
}

export interface EnvEntry {
  key: string;
  value: string;
}

/** A reader of a settings.env list. */
export const envReader =
  (env: readonly EnvEntry[]): SettingReader =>
  (key) =>
    env.find((v) => v.key === key)?.value;

// A site is read many times per request (each order of a batch): its env list is parsed once, and
// again only when its text changed (a list changed in place is not mistaken for the one read).
const cache = new WeakMap<readonly EnvEntry[], { text: string; settings: SiteSettings }>();

/** A site's typed settings: the one way a module reads them. */
export function siteSettings(site: { settings: { env: readonly EnvEntry[] } }): SiteSettings {
  const env = site.settings.env;
  const text = JSON.stringify(env);
  const known = cache.get(env);
  if (known?.text === text) return known.settings;
  const settings = settingsOf(envReader(env));
  cache.set(env, { text, settings });
  return settings;
}
