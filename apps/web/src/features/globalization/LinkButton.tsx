import { Button } from 'antd';
import type { ReactNode } from 'react';

/** A row's link-style action. */
export function LinkButton(p: { icon?: ReactNode; text: string; onClick: () => void; testId: string; loading?: boolean; disabled?: boolean }) {
  return (
    <Button type="link" size="small" icon={p.icon} onClick={p.onClick} data-testid={p.testId} loading={p.loading} disabled={p.disabled}>
      {p.text}
    </Button>
  );
}
