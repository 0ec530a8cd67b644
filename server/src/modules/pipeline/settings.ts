// What a site's settings say of each pipeline step: whether it can run (the settings it needs are
// set) and whether it runs automatically on a paid order (PIPELINE_* = 1). Read from settings.env.
import { PIPELINE_SETTINGS, PIPELINE_STEPS, type PipelineStep } from '../../../../common/api/pipeline';
import type { Config } from '../../config';
import { parseMailAddress, smtpUrlProblem } from '../../integrations/mailer';
import { fieldError } from '../../http/fieldErrors';
import { envValue, type EnvVar } from '../../lib/secrets';
import type { Site } from '../sites';

/** The settings each step needs before it can run. */
const NEEDS: Record<PipelineStep, readonly string[]> = {
  addToRaisersEdge: ['RE_BASE_URL', 'RE_CLIENT_ID', 'RE_SUBSCRIPTION_KEY'],
  addToAdestra: ['ADESTRA_BASE_URL', 'ADESTRA_TOKEN', 'ADESTRA_TABLE_ID', 'ADESTRA_BUYERS_LIST_ID'],
  sendEcard: ['SMTP_URL', 'ECARD_FROM'],
};

export interface StepSettings {
  step: PipelineStep;
  /** Runs automatically on a paid order. */
  auto: boolean;
  /** Why the step cannot run on this site (the settings missing or wrong, by name), or null when it can. */
  problem: string | null;
  /** The site has this step: it is switched on, or one of its own settings is set. */
  onSite: boolean;
}

/** A step's problem as staff read it: setting names are for admins, who set them. */
export const STEP_NOT_SET_UP = 'not set up for this site (an admin sets it up in the site\'s settings)';

/** What a step's problem says to this reader. */
export const problemFor = (s: StepSettings, admin: boolean): string | null => (s.problem && !admin ? STEP_NOT_SET_UP : s.problem);

export interface PipelineSettings {
  steps: Record<PipelineStep, StepSettings>;
  buyersListId: string;
  /** The site's SMTP_URL, else the server's. */
  smtpUrl: string;
  ecardFrom: string;
  /** The sender name of e-cards: the site's name. */
  senderName: string;
}

export function pipelineSettingsOf(site: Site, config: Pick<Config, 'sync'>): PipelineSettings {
  const v = (key: string) => envValue(site.settings.env, key)?.trim() ?? '';
  const smtpUrl = v('SMTP_URL') || config.sync.smtpUrl || '';
  const has = (key: string) => (key === 'SMTP_URL' ? smtpUrl !== '' : v(key) !== '');
  const steps = Object.fromEntries(
    PIPELINE_STEPS.map((step) => {
      const missing = NEEDS[step].filter((k) => !has(k));
      let problem = missing.length ? `not configured for this site: set ${missing.join(', ')}` : null;
      if (!problem && step === 'sendEcard') {
        const wrong = smtpUrlProblem(smtpUrl);
        if (wrong) problem = `SMTP_URL: ${wrong}`;
        else if (!parseMailAddress(v('ECARD_FROM'))) problem = `ECARD_FROM: "${v('ECARD_FROM')}" is not an e-mail address`;
      }
      const auto = v(PIPELINE_SETTINGS[step]) === '1';
      // The server's SMTP_URL is every site's: only the site's own settings say it has the step.
      return [step, { step, auto, problem, onSite: auto || NEEDS[step].some((k) => v(k) !== '') }];
    }),
  ) as Record<PipelineStep, StepSettings>;
  // ECARD_FROM is `cards@charity.org` (sent as the site's name) or `Charity Cards <cards@charity.org>`.
  const from = parseMailAddress(v('ECARD_FROM'));
  return { steps, buyersListId: v('ADESTRA_BUYERS_LIST_ID'), smtpUrl, ecardFrom: from?.address ?? v('ECARD_FROM'), senderName: from?.name ?? site.name };
}

/** Whether any step runs automatically (the webhook path reads no more of a site without). */
export const pipelineIsOn = (site: Site | undefined) => Boolean(site && Object.values(PIPELINE_SETTINGS).some((k) => envValue(site.settings.env, k)?.trim() === '1'));

/**
 * Refuse a site save whose pipeline settings are not usable, naming the setting: a mail server
 * that is not smtp(s)://host, a sender that is not an address, a switch that is not 1 or 0, a list
 * id that is not a number. Only values that changed are checked (nothing else is asked of the admin).
 */
export function checkPipelineSettings(env: EnvVar[], previous: EnvVar[]): void {
  const changed = (key: string) => {
    const now = (envValue(env, key) ?? '').trim();
    return now !== '' && now !== (envValue(previous, key) ?? '').trim() ? now : undefined;
  };
  const smtp = changed('SMTP_URL');
  const smtpProblem = smtp === undefined ? undefined : smtpUrlProblem(smtp);
  if (smtpProblem) throw fieldError('settings.env', `SMTP_URL: ${smtpProblem}`);
  const from = changed('ECARD_FROM');
  if (from !== undefined && !parseMailAddress(from)) throw fieldError('settings.env', `ECARD_FROM: "${from}" is not an e-mail address (cards@charity.org, or Charity Cards <cards@charity.org>).`);
  const list = changed('ADESTRA_BUYERS_LIST_ID');
  if (list !== undefined && !/^\d{1,12}$/.test(list)) throw fieldError('settings.env', `ADESTRA_BUYERS_LIST_ID: "${list}" is not a list id (digits).`);
  for (const key of Object.values(PIPELINE_SETTINGS)) {
    const v = changed(key);
    if (v !== undefined && v !== '1' && v !== '0') throw fieldError('settings.env', `${key}: use 1 (run on each paid order) or 0 (only on Re-run), not "${v}".`);
  }
}
