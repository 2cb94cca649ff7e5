/**
 * The dashboard in Debian's Chromium, driven by playwright-core: finding the browser, starting
 * it headless, and logging in as a person does (the one-time link of `tether status --open`).
 * Shared by the browser tests and the dashboard benchmark (bench/scenarios/dashboard.ts).
 * Chromium comes from the system's package manager; nothing here downloads a browser.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const TETHER_BIN = join(resolve(fileURLToPath(new URL('../../', import.meta.url))), 'bin', 'tether.js');

export const CHROMIUM = process.env.TETHER_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** Why the browser parts do not run, and how to make them: empty when Chromium is there. */
export const chromiumMissing = hasChromium
  ? ''
  : `no Chromium at ${CHROMIUM}; install it with \`sudo apt-get install chromium\` on Debian or Ubuntu, or set TETHER_CHROMIUM to a Chromium or Chrome binary`;

export function launchChromium(): Promise<Browser> {
  // The flags a closed network needs: no background lookups of Google's hosts at every start.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The one-time login link, as a person gets it: `tether status --open` (without starting a browser). */
export function loginLink(env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolveLink, reject) => {
    execFile(process.execPath, [TETHER_BIN, 'status', '--open', '--no-browser'], { env, timeout: 20_000 }, (error, stdout, stderr) => {
      const url = /https?:\/\/\S+\/dashboard\/login\?code=[\w-]+/.exec(stdout)?.[0];
      if (error || !url) reject(new Error(`tether status --open printed no login link (${error?.message ?? 'exit 0'}); stdout: ${stdout}\nstderr: ${stderr}`));
      else resolveLink(url);
    });
  });
}

/** A new tab logged in through the link, once the page shows its content. */
export async function openDashboard(browser: Browser, env: NodeJS.ProcessEnv): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(await loginLink(env));
  await page.locator('#content').waitFor({ state: 'visible' });
  return page;
}
