// What a site's settings say of each pipeline step: whether it can run (the settings it needs are
// set) and whether it runs automatically on a paid order (PIPELINE_* = 1). Checked on save by the
// settings registry (common/siteSettings.ts).
import { PIPELINE_SETTINGS, PIPELINE_STEPS, type PipelineStep } from '../../../../common/api/pipeline';
import type { Config } from '../../config';
import { parseMailAddress, smtpUrlProblem } from '../../integrations/mailer';
import { envValue } from '../../lib/secrets';
import type { Site } from '../sites';
import { siteSettings } from '../../../../common/siteSettings';

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
      const auto = siteSettings(site)[PIPELINE_SETTINGS[step]];
      // The server's SMTP_URL is every site's: only the site's own settings say it has the step.
      return [step, { step, auto, problem, onSite: auto || NEEDS[step].some((k) => v(k) !== '') }];
    }),
  ) as Record<PipelineStep, StepSettings>;
  // ECARD_FROM is `cards@charity.org` (sent as the site's name) or `Charity Cards <cards@charity.org>`.
  const from = parseMailAddress(v('ECARD_FROM'));
  return { steps, buyersListId: v('ADESTRA_BUYERS_LIST_ID'), smtpUrl, ecardFrom: from?.address ?? v('ECARD_FROM'), senderName: from?.name ?? site.name };
}

/** Whether any step runs automatically (the webhook path reads no more of a site without). */
export const pipelineIsOn = (site: Site | undefined) => Boolean(site && Object.values(PIPELINE_SETTINGS).some((k) => siteSettings(site)[k]));
