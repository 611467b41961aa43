import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Deferred parts waiting for their turn, first come first served. One is released at a time,
 * in a task of its own after the previous one has been committed: a page's first draw becomes
 * several short tasks instead of one long one (the commit of a large tree inserts its DOM and
 * antd's styles in one go, and a long task blocks input: Total Blocking Time).
 */
const waiting: (() => void)[] = [];
/** Parts marked `late` (controls not needed to read the page): after every other waiting part. */
const waitingLate: (() => void)[] = [];
let releasing = false;

/** Gives the next part its turn in a new task; which part is chosen when that task runs. */
function releaseNext(): void {
  releasing = waiting.length + waitingLate.length > 0;
  if (!releasing) return;
  setTimeout(() => {
    const next = waiting.shift() ?? waitingLate.shift();
    // All gone while the task was pending: nothing to release, idle again.
    if (next) next();
    else releaseNext();
  }, 0);
}

function enqueue(release: () => void, late: boolean): () => void {
  const queue = late ? waitingLate : waiting;
  queue.push(release);
  if (!releasing) releaseNext();
  return () => {
    const i = queue.indexOf(release);
    if (i >= 0) queue.splice(i, 1);
  };
}

/**
 * Draws its children after its parent has been drawn, in a later task (see above); `fallback`
 * (of the same size, so nothing moves) until then. A `late` part waits until no other part does,
 * even one that started waiting after it.
 */
export function Deferred({ children, fallback = null, late = false }: { children: ReactNode; fallback?: ReactNode; late?: boolean }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return undefined;
    let released = false;
    const cancel = enqueue(() => {
      released = true;
      startTransition(() => setReady(true));
    }, late);
    return () => {
      // Runs when its draw has been committed (ready changed), or when it goes before that. Its
      // turn is over: the next part's turn if it had one, else it leaves the queue (a part is
      // chosen only when its turn's task runs, so one that has gone is never released).
      if (released) releaseNext();
      cancel();
    };
  }, [ready, late]);
  return ready ? children : fallback;
}
