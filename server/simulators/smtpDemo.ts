// Outside production: the mail catcher on loopback, and the charity demo site's mail settings
// pointing at it, so the e-cards and the test e-mail of the demo land on the "Caught e-mails" page.
import type { Db } from '../src/db';
import type { Clock } from '../src/lib/clock';
import type { Logger } from 'pino';
import { envValue } from '../src/lib/secrets';
import type { Site } from '../src/modules/sites/repo';
import { writeEnvValue } from '../src/modules/sync/siteSettings';
import { startSmtpCatcher, type SmtpCatcher } from './smtp';

// The catcher wants this login: its URL is then recognisably ours (another start may have had
// another port), and never mistaken for a local server someone set on purpose.
const LOGIN = { user: 'demo-catcher', pass: 'demo' };
const EARLIER_CATCHER = /^smtp:\/\/demo-catcher:[^@]*@127\.0\.0\.1:\d+$/;

async function listen(port: number, log: Logger): Promise<SmtpCatcher> {
  try {
    return await startSmtpCatcher({ port, host: '127.0.0.1', auth: LOGIN });
  } catch (err) {
    if (port === 0) throw err;
    // Another instance (or another program) holds the port: any free one does for a demo.
    log.warn({ err, port }, 'the mail catcher port is taken: using any free port');
    return startSmtpCatcher({ port: 0, host: '127.0.0.1', auth: LOGIN });
  }
}

/** The catcher; `site` (the charity demo site, when the demo has it) is pointed at it. */
export async function demoSmtpCatcher(deps: { db: Db; clock: Clock; log: Logger }, site: Site | undefined, port: number): Promise<SmtpCatcher> {
  const catcher = await listen(port, deps.log);
  if (!site) return catcher;
  const complete = async (key: string, value: string, replace: (current: string) => boolean) => {
    const current = envValue(site.settings.env, key)?.trim() ?? '';
    if (current && !replace(current)) return;
    if (current === value) return;
    await writeEnvValue(deps.db, deps.clock, site.id, key, value);
    site.settings.env = [...site.settings.env.filter((v) => v.key !== key), { key, value }];
  };
  await complete('SMTP_URL', catcher.url, (current) => EARLIER_CATCHER.test(current));
  await complete('ECARD_FROM', `cards@${site.slug}.example.org`, () => false);
  return catcher;
}
