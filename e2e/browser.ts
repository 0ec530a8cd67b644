// Chromium from Debian, driven by playwright-core. Screenshots go to e2e/screenshots/ (ignored by git).
import fs from 'node:fs';
import path from 'node:path';
import type { PDFDocument } from 'pdf-lib';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const SCREENSHOTS = path.resolve(import.meta.dirname, 'screenshots');

// ---------------------------------------------------------------------------------------------
// Console errors: every page of a launched browser is watched; e2e/setup.ts fails the test that
// saw one (a console 'error' message or an uncaught exception). A request a test makes fail on
// purpose is declared with expectFailedRequest, which also fails the test if it never happens.

interface AllowedFailure {
  page: Page;
  path: RegExp;
  status: number;
  seen: number;
  label: string;
}

const consoleErrors: string[] = [];
const allowedFailures: AllowedFailure[] = [];

/** The status and URL of Chromium's "Failed to load resource" message, when it is one. */
function failedRequestOf(message: ConsoleMessage): { status: number; url: string } | null {
  const match = /^Failed to load resource: the server responded with a status of (\d{3})/.exec(message.text());
  return match ? { status: Number(match[1]), url: message.location().url } : null;
}

function watchPage(page: Page): void {
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const failed = failedRequestOf(message);
    if (failed) {
      const pathname = new URL(failed.url).pathname + new URL(failed.url).search;
      const allowed = allowedFailures.find((a) => a.page === page && a.status === failed.status && a.path.test(pathname));
      if (allowed) {
        allowed.seen++;
        return;
      }
      consoleErrors.push(`${page.url()}: ${message.text()} (${failed.url})`);
      return;
    }
    consoleErrors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: uncaught ${error.name}: ${error.message}`));
}

function watchContext(context: BrowserContext): BrowserContext {
  context.on('page', watchPage);
  return context;
}

/**
 * Declares that `page` will see a request to a path matching `path` answered `status` on purpose
 * (a refusal the test checks): its console error is not a failure. The test fails if it never comes.
 */
export function expectFailedRequest(page: Page, path: RegExp | string, status: number): void {
  const pattern = typeof path === 'string' ? new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:[?#]|$)`) : path;
  allowedFailures.push({ page, path: pattern, status, seen: 0, label: `${status} ${String(path)}` });
}

/** The console errors since the last call, and the declared failed requests that never came; clears both. */
export function takeConsoleProblems(): string[] {
  const problems = consoleErrors.splice(0);
  for (const a of allowedFailures.splice(0)) if (a.seen === 0) problems.push(`expected a failed request ${a.label}, none came`);
  return problems;
}

export async function launch(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  // Every page of every context is watched, however the test makes it.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => watchContext(await newContext(...args));
  browser.newPage = async (...args) => {
    const context = await browser.newContext(...args);
    const page = await context.newPage();
    page.once('close', () => void context.close().catch(() => undefined));
    return page;
  };
  return browser;
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Fails the test on any request to another host: the app must call only its own. */
export function guardOwnHost(page: Page, baseUrl: string): string[] {
  const foreign: string[] = [];
  const own = new URL(baseUrl).host;
  page.on('request', (req) => {
    const u = new URL(req.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.host !== own) foreign.push(req.url());
  });
  return foreign;
}

/** The product API as the signed-in user of `page` (token from localStorage), envelope unwrapped; a refusal throws. */
export async function apiAs<T>(page: Page, baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token, 'signed in').toBeTruthy();
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; data: T; error?: string };
  if (!json.success) throw new Error(`${method} ${path} → ${res.status} ${json.error}`);
  return json.data;
}

export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole('button', { name: /sign in|log ?in/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 15_000 });
}

/** A card's print file: every page A5 + 3 mm bleed each side (MediaBox = BleedBox), its TrimBox A5. */
export function expectCardPages(pdf: PDFDocument): void {
  for (const p of pdf.getPages()) {
    const { width, height } = p.getSize();
    expect(width).toBeCloseTo(436.54, 1);
    expect(height).toBeCloseTo(612.28, 1);
    expect(p.getBleedBox()).toEqual(p.getMediaBox());
    const trim = p.getTrimBox();
    expect(trim.width).toBeCloseTo(419.53, 1);
    expect(trim.height).toBeCloseTo(595.28, 1);
  }
}
