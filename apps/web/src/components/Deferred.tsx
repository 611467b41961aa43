import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Deferred parts waiting for their turn, first come first served. One is released at a time,
 * in a task of its own after the previous one has been committed: a page's first draw becomes
 * several short tasks instead of one long one (the commit of a large tree inserts its DOM and
 * antd's styles in one go, and a long task blocks input: Total Blocking Time).
 */
const waiting: (() => void)[] = [];
let releasing = false;

function releaseNext(): void {
  const next = waiting.shift();
  releasing = next !== undefined;
  if (next) setTimeout(next, 0);
}

function enqueue(release: () => void): () => void {
  waiting.push(release);
  if (!releasing) releaseNext();
  return () => {
    const i = waiting.indexOf(release);
    if (i >= 0) waiting.splice(i, 1);
  };
}

/**
 * Draws its children after its parent has been drawn, in a later task (see above); `fallback`
 * (of the same size, so nothing moves) until then.
 */
export function Deferred({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return undefined;
    let state: 'waiting' | 'released' | 'gone' = 'waiting';
    const cancel = enqueue(() => {
      // Gone while waiting: the next one's turn.
      if (state === 'gone') return releaseNext();
      state = 'released';
      startTransition(() => setReady(true));
    });
    return () => {
      // Runs when its draw has been committed (ready changed), or when it goes before that: either
      // way its turn is over.
      if (state === 'released') releaseNext();
      state = 'gone';
      cancel();
    };
  }, [ready]);
  return ready ? children : fallback;
}
