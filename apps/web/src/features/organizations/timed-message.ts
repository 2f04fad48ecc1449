import { useCallback, useEffect, useRef, useState } from 'react';
import { MESSAGE_TIMEOUT_MS } from '@portico/contracts/constants';

export interface TimedMessage {
  kind: 'status' | 'error';
  text: string;
  detail?: string;
}

/**
 * A status or error message that vanishes after MESSAGE_TIMEOUT_MS (spec A 4: 'Errors and status
 * messages disappear after 10 seconds'). Showing a new message restarts the time.
 */
export function useTimedMessage(): [TimedMessage | null, (message: TimedMessage | null) => void] {
  const [message, setMessage] = useState<TimedMessage | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = useCallback((next: TimedMessage | null) => {
    clearTimeout(timer.current);
    setMessage(next);
    if (next) timer.current = setTimeout(() => setMessage(null), MESSAGE_TIMEOUT_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}
