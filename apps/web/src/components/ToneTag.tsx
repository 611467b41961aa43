import { Tag } from 'antd';
import type { ReactNode } from 'react';

/** The tones of a state tag. */
export type Tone = 'success' | 'processing' | 'warning' | 'error' | 'default';

/**
 * Solid colours of the tones with white text, each at least 4.5:1 against white (antd's light
 * preset tags are not, for small text): green, blue, orange, red, grey.
 */
export const TONE_COLOURS: Record<Tone, string> = {
  success: '#237804',
  processing: '#0958d9',
  warning: '#ad4e00',
  error: '#a8071a',
  default: '#595959',
};

/** A state shown as a solid tag of its tone (readable: white on a dark colour). */
export function ToneTag({ tone, children, testId }: { tone: Tone; children: ReactNode; testId?: string }) {
  return (
    <Tag color={TONE_COLOURS[tone]} style={{ color: '#fff', marginInlineEnd: 0 }} data-testid={testId} data-tone={tone}>
      {children}
    </Tag>
  );
}
