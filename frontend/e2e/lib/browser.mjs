// Debian's Chromium driven by playwright-core (no browser download).
import { chromium } from 'playwright-core';

/** The reseller's domain the brand flow maps to 127.0.0.1. */
export const BRAND_HOST = 'brand.example';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** @param {{headed?: boolean}} opts */
export function launch({ headed = false } = {}) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: !headed,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // A reseller's domain (flows/brand.mjs) reaches the test server on loopback.
      `--host-resolver-rules=MAP ${BRAND_HOST} 127.0.0.1`,
    ],
  });
}

/** Desktop and the narrowest phone the panel supports. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 740 },
  /** Issue 36's screens: a 1366 px laptop and a 390 px phone. */
  laptop: { width: 1366, height: 900 },
  phone390: { width: 390, height: 844 },
};
