// Types of builds.mjs for the TypeScript callers (benchmarks, browser tests).
export type BuildName = 'admin' | 'server';
export function buildState(name: BuildName): 'missing' | 'stale' | 'current';
export function ensureBuilt(names: BuildName[], options?: { optional?: BuildName[]; log?: (line: string) => void; warn?: (line: string) => void }): Promise<void>;
export function serverEntryFile(entry: string): string;
export function builtServerCommands(): string[];
