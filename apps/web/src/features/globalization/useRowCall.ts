import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * A row or toolbar call of the globalization screens: `busy` names the running one; the lists
 * under `root` are read again when it ends. A refusal was shown by the request layer, so the
 * caller gets undefined for it.
 */
export function useRowCall(root: readonly string[]) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  async function run<T>(key: string, fn: () => Promise<T>): Promise<T | undefined> {
    setBusy(key);
    try {
      return await fn();
    } catch {
      return undefined;
    } finally {
      setBusy(null);
      void client.invalidateQueries({ queryKey: root });
    }
  }
  return { busy, run };
}
