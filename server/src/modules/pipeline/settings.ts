// What a site's settings say of each pipeline step: whether it can run (the settings it needs are
// set) and whether it runs automatically on a paid order (PIPELINE_* = 1). Read from settings.env.
import { PIPELINE_SETTINGS, PIPELINE_STEPS, type PipelineStep } from '../../../../common/api/pipeline';
import type { Config } from '../../config';
import { smtpUrlProblem } from '../../integrations/mailer';
import { envValue } from '../../lib/secrets';
import type { Site } from '../sites/repo';

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
  /** Why the step cannot run on this site (the settings missing or wrong), or null when it can. */
  problem: string | null;
}

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
        else if (!isEmail(v('ECARD_FROM'))) problem = `ECARD_FROM: "${v('ECARD_FROM')}" is not an e-mail address`;
      }
      return [step, { step, auto: v(PIPELINE_SETTINGS[step]) === '1', problem }];
    }),
  ) as Record<PipelineStep, StepSettings>;
  return { steps, buyersListId: v('ADESTRA_BUYERS_LIST_ID'), smtpUrl, ecardFrom: v('ECARD_FROM'), senderName: site.name };
}

/** Whether any step runs automatically (the webhook path reads no more of a site without). */
export const pipelineIsOn = (site: Site | undefined) => Boolean(site && Object.values(PIPELINE_SETTINGS).some((k) => envValue(site.settings.env, k)?.trim() === '1'));

/** A plain address check (one @, a dot in the domain, no spaces): the mail server has the last word. */
export const isEmail = (s: string) => /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/.test(s);
