import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState, type ReactNode } from 'react';

/** A row action's call: which one is running, and the screen's lists (under `root`) read again after it, whatever its outcome. */
export function useRowCall(root: readonly string[]) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async <T,>(key: string, fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(key);
    // A refusal has been shown by the request layer: the caller only sees undefined.
    const answer = await fn().then((v) => v, () => undefined);
    setBusy(null);
    void client.invalidateQueries({ queryKey: root });
    return answer;
  };
  return { busy, run };
}

/** A row's link-style action button. */
export function LinkButton({ icon, text, onClick, testId, loading, danger }: { icon?: ReactNode; text: string; onClick: () => void; testId: string; loading?: boolean; danger?: boolean }) {
  return (
    <Button type="link" size="small" icon={icon} onClick={onClick} data-testid={testId} loading={loading} danger={danger}>
      {text}
    </Button>
  );
}
