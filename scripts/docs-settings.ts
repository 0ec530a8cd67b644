// Writes docs/settings.md from the settings registry (common/siteSettings.ts).
//
//   npm run docs:settings
import fs from 'node:fs';
import path from 'node:path';
import { settingsMarkdown } from '../common/siteSettingsDoc';

const out = path.resolve(import.meta.dirname, '..', 'docs', 'settings.md');
fs.writeFileSync(out, settingsMarkdown());
console.log(`wrote ${path.relative(process.cwd(), out)}`);
