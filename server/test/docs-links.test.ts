// The README and the guides link to each other and to headings inside them; a renamed file or
// heading would leave a reader at a dead end. Every relative link and #anchor is checked here,
// with GitHub's own heading slugs (github-slugger), and nothing may send a reader outside the
// repository to ../shared.
import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const md = new MarkdownIt({ html: true });

function markdownFiles(): string[] {
  const docs = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return docs(full);
      return e.name.endsWith('.md') ? [full] : [];
    });
  return [...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((f) => path.join(root, f)), ...docs(path.join(root, 'docs'))];
}

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];
const textOf = (inline: Token): string => (inline.children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join('');

/** The anchors GitHub gives a file's headings (duplicates numbered, as GitHub does). */
function anchorsOf(source: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = md.parse(source, {});
  const out = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.type === 'heading_open') out.add(slugger.slug(textOf(tokens[i + 1])));
  });
  return out;
}

/** Every link and image target of a file, with its line. */
function linksOf(source: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  let line = 1; // the line of the nearest block seen so far (inline tokens carry none)
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.map) line = t.map[0] + 1;
      if (t.type === 'link_open') out.push({ target: String(t.attrGet('href') ?? ''), line });
      if (t.type === 'image') out.push({ target: String(t.attrGet('src') ?? ''), line });
      if (t.children) walk(t.children);
    }
  };
  walk(md.parse(source, {}));
  return out;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** The problems of one file's links: each names the file, the line and what is missing. */
export function deadLinks(file: string, read: (f: string) => string = (f) => fs.readFileSync(f, 'utf8'), exists: (f: string) => boolean = fs.existsSync): string[] {
  const source = read(file);
  const problems: string[] = [];
  const where = (line: number) => `${path.relative(root, file)}:${line}`;
  for (const { target, line } of linksOf(source)) {
    if (target.includes('../shared')) {
      problems.push(`${where(line)} links outside the repository: ${target}`);
      continue;
    }
    if (!target || isExternal(target)) continue;
    const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
    const filePart = decodeURIComponent(rawPath);
    const linked = filePart ? path.resolve(path.dirname(file), filePart) : file;
    if (!linked.startsWith(root + path.sep) && linked !== root) {
      problems.push(`${where(line)} leaves the repository: ${target}`);
      continue;
    }
    if (!exists(linked)) {
      problems.push(`${where(line)} dead link: ${target} (no ${path.relative(root, linked)})`);
      continue;
    }
    if (anchor !== undefined && linked.endsWith('.md') && !anchorsOf(read(linked)).has(decodeURIComponent(anchor))) {
      problems.push(`${where(line)} missing anchor: ${target} (no heading of ${path.relative(root, linked)} has the slug #${anchor})`);
    }
  }
  return problems;
}

describe('links in the README and the guides', () => {
  const files = markdownFiles();

  it('finds the README, CONTRIBUTING, CHANGELOG and the guides', () => {
    for (const f of ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'docs/operators-guide.md', 'docs/developer-guide.md']) {
      expect(files.map((x) => path.relative(root, x))).toContain(f);
    }
  });

  it.each(files.map((f) => [path.relative(root, f), f]))('%s: every relative link and #anchor leads somewhere', (_name, file) => {
    expect(deadLinks(file)).toEqual([]);
  });

  it.each(files.map((f) => [path.relative(root, f), f]))('%s: never points to ../shared', (_name, file) => {
    expect(fs.readFileSync(file, 'utf8')).not.toContain('../shared');
  });

  it('reports a dead file, a missing anchor and a link to ../shared (the check itself)', () => {
    const fake = path.join(root, 'docs', 'fake.md');
    const pages: Record<string, string> = {
      [fake]: '# Fake\n\n## Held jobs `now`\n\n[a](nowhere.md) [b](operators-guide.md#no-such-heading) [c](../../shared/SPEC.md) [d](#held-jobs-now) [e](https://example.org/x.md)\n',
    };
    const read = (f: string) => pages[f] ?? fs.readFileSync(f, 'utf8');
    const problems = deadLinks(fake, read, (f) => f in pages || fs.existsSync(f));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('dead link: nowhere.md');
    expect(problems[1]).toContain('missing anchor: operators-guide.md#no-such-heading');
    expect(problems[2]).toContain('links outside the repository: ../../shared/SPEC.md');
  });

  it('slugs headings as GitHub does', () => {
    expect([...anchorsOf('# A\n## 4. Held jobs\n## Held jobs\n## Held jobs\n## `code` & more')]).toEqual(['a', '4-held-jobs', 'held-jobs', 'held-jobs-1', 'code--more']);
  });
});
