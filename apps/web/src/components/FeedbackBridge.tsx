import { message as antdMessage } from 'antd';
import { useEffect } from 'react';
import { HoverTimer, setToastHost, type ToastRequest } from '../platform/feedback/toast.ts';

let seq = 0;

/**
 * Draws the request layer's toasts with antd's message, inside the app's theme and direction
 * (its own message holder: antd's App, with modal and notification, loads only after sign-in).
 */
export function FeedbackBridge() {
  const [message, holder] = antdMessage.useMessage();
  useEffect(() => {
    const show = (x: ToastRequest) => {
      const key = `toast-${++seq}`;
      const style = x.align === 'left' ? { textAlign: 'left' as const, display: 'inline-block' } : undefined;
      if (!x.pauseOnHover) {
        void message.open({ key, type: x.type, content: <span style={style}>{x.text}</span>, duration: x.durationMs / 1000 });
        return;
      }
      const timer = new HoverTimer(x.durationMs, () => message.destroy(key));
      void message.open({
        key,
        type: x.type,
        duration: 0,
        content: (
          <span style={style} data-toast-align={x.align} onMouseEnter={() => timer.pause()} onMouseLeave={() => timer.resume()}>
            {x.text}
          </span>
        ),
      });
    };
    setToastHost({ show });
    return () => setToastHost(null);
  }, [message]);
  return holder;
}
