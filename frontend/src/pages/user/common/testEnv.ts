// Test-only: what jsdom lacks for the user screens' components. Mantine's
// autosizing Textarea listens to document.fonts, which jsdom does not have
// (the shared src/test/setup.ts does not stub it).
export function stubDocumentFonts() {
  if ((document as { fonts?: unknown }).fonts) return;
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });
}
