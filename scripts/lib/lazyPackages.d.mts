// Types of lazyPackages.mjs for the TypeScript callers (tests).
export const LAZY_PACKAGES: Record<string, string>;
export const LAZY_REQUIRE: string;
export const lazyRequireBanner: string;
export function standInSource(name: string, purpose: string, real: unknown): string;
export function lazyPackagesPlugin(root: string, packages?: Record<string, string>): unknown;
