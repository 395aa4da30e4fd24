import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';

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

afterEach(() => {
  cleanup();
  // The notifications store is global: one test's toasts must not show in the next.
  notifications.clean();
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});
