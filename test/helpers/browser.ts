/**
 * Headless Chromium for the web tests: Debian's /usr/bin/chromium driven by playwright-core (no browser
 * download). Pages record console errors and uncaught exceptions, and fail on any dialog (an injected script
 * that ran would open one).
 */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

export interface WatchedPage {
  readonly page: Page;
  /** Console errors and warnings, uncaught exceptions, dialogs, CSP violations: anything a visitor's console would show. */
  readonly problems: string[];
}

/** A page in a fresh context whose console is watched. Document requests answered 404 on purpose are not problems. */
export async function watchedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage & { context: BrowserContext }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  const expected404 = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document' && response.status() === 404) expected404.add(response.url());
  });
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const location = message.location().url;
    if (/status of 404/.test(message.text()) && expected404.has(location)) return;
    problems.push(`${message.type()}: ${message.text()} (${location})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, problems, context };
}
