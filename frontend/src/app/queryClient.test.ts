import { describe, expect, it, vi } from 'vitest';
import { onlineManager } from '@tanstack/react-query';
import { createQueryClient } from './queryClient';

describe('createQueryClient offline', () => {
  it('fails a mutation at once instead of pausing it to send later', async () => {
    const qc = createQueryClient({ retryDelay: 0 });
    onlineManager.setOnline(false);
    try {
      const fn = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
      const m = qc.getMutationCache().build(qc, { mutationFn: fn });
      await expect(m.execute(undefined)).rejects.toThrow('Failed to fetch');
      expect(fn).toHaveBeenCalledTimes(1);
      expect(m.state.isPaused).toBe(false);
      onlineManager.setOnline(true);
      await qc.resumePausedMutations();
      expect(fn).toHaveBeenCalledTimes(1); // never resent on its own
    } finally {
      onlineManager.setOnline(true);
    }
  });
});
