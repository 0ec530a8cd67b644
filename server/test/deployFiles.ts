// The deploy folder as the machine reads it: the systemd unit, its EnvironmentFile and the proxies'
// settings, parsed the way systemd, nginx and Caddy parse them (the parts our files use), for the
// tests that keep those files true to the server.
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const DEPLOY = path.join(ROOT, 'deploy');
export const UNIT_FILE = path.join(DEPLOY, 'presswork.service');
export const ENV_EXAMPLE = path.join(DEPLOY, 'presswork.env.example');
export const NGINX_CONF = path.join(DEPLOY, 'nginx.conf');
export const CADDYFILE = path.join(DEPLOY, 'Caddyfile');

/** A unit file: section → key → every value given (ReadWritePaths= and the like may repeat). */
export type Unit = Record<string, Record<string, string[]>>;

export function parseUnit(text: string): Unit {
  const unit: Unit = {};
  let section: Record<string, string[]> | undefined;
  // systemd joins a line ending in a backslash with the next.
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) return;
    const header = /^\[([A-Za-z]+)\]$/.exec(line);
    if (header) {
      section = unit[header[1]] ??= {};
      return;
    }
    const kv = /^([A-Za-z][A-Za-z0-9]*)\s*=\s*(.*)$/.exec(line);
    if (!kv || !section) throw new Error(`line ${i + 1} of the unit is not "Key=value" inside a section: ${raw}`);
    (section[kv[1]] ??= []).push(kv[2]);
  });
  return unit;
}

/** The one value of a key (the last one given, as systemd takes it for single-valued keys). */
export function unitValue(unit: Unit, section: string, key: string): string | undefined {
  return unit[section]?.[key]?.at(-1);
}

/** An Exec*= command line as systemd splits it: words, "quoted words", prefixes (@-:+!) dropped. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) words.push(m[1] ?? m[2] ?? m[3]);
  if (words.length) words[0] = words[0].replace(/^[@\-:+!]+/, '');
  return words;
}

/** A systemd time span ("30", "30s", "1min 30s", "500ms") in milliseconds. */
export function timespanMs(value: string): number {
  const units: Record<string, number> = { '': 1000, ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000, hr: 3_600_000 };
  let total = 0;
  const parts = value.trim().split(/\s+/);
  for (const part of parts) {
    const m = /^(\d+(?:\.\d+)?)([a-z]*)$/.exec(part);
    if (!m || !(m[2] in units)) throw new Error(`not a time span systemd reads: ${value}`);
    total += Number(m[1]) * units[m[2]];
  }
  return total;
}

/** A setting the env file names: set (an active line) or shown commented out with its default. */
export interface ListedSetting {
  name: string;
  value: string;
  active: boolean;
  line: number;
  /** The comment lines right above it. */
  comment: string;
}

export interface EnvFile {
  /** What systemd hands the process: the active lines. */
  values: Record<string, string>;
  /** Every setting named, active or commented, in file order. */
  listed: ListedSetting[];
}

/**
 * An EnvironmentFile as systemd reads it: KEY=value lines, # or ; comments, a value may be quoted.
 * An active line systemd would not read as an assignment is an error (it would be a silent typo).
 */
export function parseEnvFile(text: string): EnvFile {
  const values: Record<string, string> = {};
  const listed: ListedSetting[] = [];
  let comment: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) {
      comment = [];
      return;
    }
    const commented = /^[#;]\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (commented) {
      listed.push({ name: commented[1], value: commented[2], active: false, line: i + 1, comment: comment.join('\n') });
      comment = [];
      return;
    }
    if (line.startsWith('#') || line.startsWith(';')) {
      comment.push(line.replace(/^[#;]\s?/, ''));
      return;
    }
    const kv = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!kv) throw new Error(`line ${i + 1} of the env file is not KEY=value: ${raw}`);
    const value = /^"(.*)"$|^'(.*)'$/.exec(kv[2]);
    values[kv[1]] = value ? (value[1] ?? value[2]) : kv[2];
    listed.push({ name: kv[1], value: values[kv[1]], active: true, line: i + 1, comment: comment.join('\n') });
    comment = [];
  });
  return { values, listed };
}

export const readUnit = () => parseUnit(fs.readFileSync(UNIT_FILE, 'utf8'));
export const readEnvExample = () => parseEnvFile(fs.readFileSync(ENV_EXAMPLE, 'utf8'));

/** A setting's value in the env file: the active line, else the default its commented line shows. */
export function envSetting(env: EnvFile, name: string): string | undefined {
  const entry = env.listed.find((s) => s.name === name);
  return entry && entry.value !== '' ? entry.value : undefined;
}

/** A directive of an nginx or Caddy configuration, with its block when it has one. */
export interface Directive {
  name: string;
  args: string[];
  block?: Directive[];
}

/** nginx's syntax: `name args;` or `name args { … }`, # comments, quoted words. */
export function parseNginx(text: string): Directive[] {
  const tokens: string[] = [];
  const re = /#[^\n]*|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([{};])|([^\s{};"'#]+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].startsWith('#')) continue;
    tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  }
  let i = 0;
  const block = (): Directive[] => {
    const out: Directive[] = [];
    while (i < tokens.length && tokens[i] !== '}') {
      const words: string[] = [];
      while (i < tokens.length && tokens[i] !== ';' && tokens[i] !== '{') words.push(tokens[i++]);
      const [name, ...args] = words;
      if (tokens[i] === '{') {
        i++;
        out.push({ name, args, block: block() });
        if (tokens[i++] !== '}') throw new Error(`nginx: "${name}" block is not closed`);
      } else {
        if (tokens[i++] !== ';') throw new Error(`nginx: "${name}" has no closing ;`);
        out.push({ name, args });
      }
    }
    return out;
  };
  const out = block();
  if (i < tokens.length) throw new Error('nginx: a } closes no block');
  return out;
}

/** The Caddyfile's syntax: one directive a line, `{` at a line's end opens a block, `}` alone closes it. */
export function parseCaddyfile(text: string): Directive[] {
  const root: Directive[] = [];
  const stack: Directive[][] = [root];
  text.split('\n').forEach((raw, n) => {
    const words: string[] = [];
    const re = /"((?:[^"\\]|\\.)*)"|`([^`]*)`|(#.*)|(\S+)/g;
    for (let m = re.exec(raw.trim()); m; m = re.exec(raw.trim())) {
      if (m[3] !== undefined) break;
      words.push(m[1] ?? m[2] ?? m[4]);
    }
    if (!words.length) return;
    if (words.length === 1 && words[0] === '}') {
      if (stack.length === 1) throw new Error(`Caddyfile line ${n + 1}: } closes no block`);
      stack.pop();
      return;
    }
    const opens = words.at(-1) === '{';
    const [name, ...args] = opens ? words.slice(0, -1) : words;
    const d: Directive = { name, args };
    stack.at(-1)!.push(d);
    if (opens) stack.push((d.block = []));
  });
  if (stack.length !== 1) throw new Error('Caddyfile: a block is not closed');
  return root;
}

/** Every directive named `name`, at any depth under `within`. */
export function findAll(within: Directive[], name: string): Directive[] {
  return within.flatMap((d) => [...(d.name === name ? [d] : []), ...(d.block ? findAll(d.block, name) : [])]);
}
