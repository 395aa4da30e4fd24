import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { session } from '../auth/session';
import { setTimeZoneForTests } from '../lib/dates';

// jsdom lacks what Mantine measures with.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver = globalThis.ResizeObserver ?? (ResizeObserverStub as unknown as typeof ResizeObserver);
window.HTMLElement.prototype.scrollIntoView = window.HTMLElement.prototype.scrollIntoView ?? (() => {});
// Mantine's autosizing Textarea listens to document.fonts, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve(), status: 'loaded' },
  });
}

// Transitions are off in tests (renderWithApp gives MantineProvider
// env="test"), so a find waits on the app, not on animations; the limit is
// for a loaded machine (two cores shared), not for a slow screen.
configure({ asyncUtilTimeout: 4000 });

// Test files share one environment per worker (isolate: false in
// vite.config.ts, half the suite's time): what one test leaves in
// module state or the document is reset here.
afterEach(() => {
  cleanup();
  session.resetForTests();
  setTimeZoneForTests(null);
  document.head.querySelectorAll('meta[name="paygate-timezone"]').forEach((m) => m.remove());
  // The notifications store is global: one test's toasts must not show in the next.
  notifications.clean();
  localStorage.clear();
  sessionStorage.clear();
  document.cookie = 'paygate_session=; path=/; max-age=0';
  vi.unstubAllGlobals();
});
