import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deferred } from './Deferred.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Runs the timer of the part whose turn it is, and React's work after it. */
const nextTurn = async () => {
  await act(async () => {
    await vi.advanceTimersToNextTimerAsync();
  });
};

describe('Deferred', () => {
  it('draws its children in a task after the first draw, one part a turn, with fallbacks until then', async () => {
    render(
      <>
        <p>page</p>
        <Deferred fallback={<p>slot A</p>}>
          <p>part A</p>
        </Deferred>
        <Deferred fallback={<p>slot B</p>}>
          <p>part B</p>
        </Deferred>
      </>,
    );
    expect(screen.getByText('page')).toBeTruthy();
    expect(screen.getByText('slot A')).toBeTruthy();
    expect(screen.getByText('slot B')).toBeTruthy();

    await nextTurn();
    expect(screen.getByText('part A')).toBeTruthy();
    expect(screen.queryByText('slot A')).toBeNull();
    // B's turn comes only after A has been drawn, in a task of its own.
    expect(screen.getByText('slot B')).toBeTruthy();

    await nextTurn();
    expect(screen.getByText('part B')).toBeTruthy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('draws a late part after every other part, even one that started waiting after it', async () => {
    function Parent() {
      return (
        <Deferred fallback={<p>slot parent</p>}>
          <p>parent</p>
          <Deferred fallback={<p>slot child</p>}>
            <p>child</p>
          </Deferred>
        </Deferred>
      );
    }
    render(
      <>
        <Deferred late fallback={<p>slot late</p>}>
          <p>late</p>
        </Deferred>
        <Parent />
      </>,
    );
    await nextTurn();
    expect(screen.getByText('parent')).toBeTruthy();
    expect(screen.getByText('slot late')).toBeTruthy();
    // The child started waiting when its parent was drawn, after the late part: it still goes first.
    await nextTurn();
    expect(screen.getByText('child')).toBeTruthy();
    expect(screen.getByText('slot late')).toBeTruthy();
    await nextTurn();
    expect(screen.getByText('late')).toBeTruthy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes the turn on when a waiting part goes away', async () => {
    function Page() {
      const [showA, setShowA] = useState(true);
      return (
        <>
          <button onClick={() => setShowA(false)}>hide</button>
          {showA && (
            <Deferred>
              <p>part A</p>
            </Deferred>
          )}
          <Deferred>
            <p>part B</p>
          </Deferred>
        </>
      );
    }
    render(<Page />);
    act(() => screen.getByText('hide').click());
    await nextTurn();
    await nextTurn();
    expect(screen.queryByText('part A')).toBeNull();
    expect(screen.getByText('part B')).toBeTruthy();
  });
});
