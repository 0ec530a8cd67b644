// docs/settings.md, written from the settings registry: `npm run docs:settings` writes it, and a
// test fails when the file in the repository says something else.
import { SETTING_GROUPS, SETTING_LIST, type SettingDef } from './siteSettings';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const typeOf = (d: SettingDef) => (d.choices ? `${d.type}: ${d.choices.join(' / ')}` : d.type);

export function settingsMarkdown(): string {
  const out = [
    '# Site settings',
    '',
    '<!-- Written by `npm run docs:settings` from common/siteSettings.ts; edit the registry, not this file. -->',
    '',
    "Each site keeps its settings as key = value pairs (Sites → a site → its settings). A value that is",
    'unset, or not usable, reads as its default. Saving a site with a value that is not usable is refused',
    'with a message naming the key, and nothing is saved. Secret values are never shown again: the admin',
    'screens and the API show `********` (a password inside a URL is masked in place), and sending the mask',
    'back keeps the stored value.',
    '',
    '*Set by*: **admin** on the site form; **app** when the app writes the value itself (a token it is given, a time it records).',
    '',
  ];
  for (const [group, title] of Object.entries(SETTING_GROUPS)) {
    const rows = SETTING_LIST.filter((d) => d.group === group);
    if (!rows.length) continue;
    out.push(`## ${title}`, '', '| Key | Type | Default | Secret | Set by | What it does |', '| --- | --- | --- | --- | --- | --- |');
    for (const d of rows) out.push(`| \`${d.key}\` | ${cell(typeOf(d))} | ${d.defaultText ? `\`${cell(d.defaultText)}\`` : ''} | ${d.secret ? 'yes' : ''} | ${d.setBy} | ${cell(d.help)} |`);
    out.push('');
  }
  return out.join('\n');
}
