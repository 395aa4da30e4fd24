import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Samples } from './Samples';
import { json, renderWithApp } from '../../../test/render';

const SAMPLES = {
  curl: "curl -sS -X POST 'http://localhost:8080/api/v1/sms' \\\n  -H 'X-API-Key: YOUR_API_KEY'\n",
  python: 'import requests\n\nresponse = requests.request("POST", "http://localhost:8080/api/v1/sms")\n',
  node: 'async function main() {\n  const response = await fetch(url, { method: "POST" });\n}\n',
  php: "<?php\n$ch = curl_init('http://localhost:8080/api/v1/sms');\n",
  go: 'package main\n\nfunc main() {}\n',
};

describe('Samples', () => {
  it('fetches the service’s samples and shows them in tabs, curl first, each with a copy button', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (input: Request | string) => {
      calls.push(typeof input === 'string' ? input : new URL(input.url).pathname);
      return json(200, SAMPLES);
    }));
    renderWithApp(<Samples serviceId={7} />);

    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['curl', 'Python', 'Node.js', 'PHP', 'Go']);
    expect(calls.some((c) => c.endsWith('/api/v1/panel/services/7/samples'))).toBe(true);
    expect(screen.getByTestId('sample-curl')).toHaveTextContent("curl -sS -X POST 'http://localhost:8080/api/v1/sms'");

    const u = userEvent.setup(); // with its own clipboard
    await u.click(screen.getByRole('tab', { name: 'Python' }));
    expect(await screen.findByTestId('sample-Python')).toHaveTextContent('import requests');
    expect(screen.queryByTestId('sample-curl')).toBeNull();

    await u.click(screen.getByRole('tab', { name: 'Go' }));
    await u.click(screen.getByRole('button', { name: 'Copy the Go sample' }));
    expect(await navigator.clipboard.readText()).toBe(SAMPLES.go);
  });

  it('shows an error with a retry when the samples cannot be loaded', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(500, { success: false, message: 'Internal error', error: 'internal' })));
    renderWithApp(<Samples serviceId={7} />);
    expect(await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 })).toBeInTheDocument();
  });
});
