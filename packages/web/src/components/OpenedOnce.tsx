import { type ReactNode, Suspense, useState } from 'react';

/**
 * Renders a lazily loaded drawer or modal from the first time it is opened on, and keeps it mounted
 * after (its closing animation and state stay as they were): its code is not part of the page's
 * first load.
 */
export function OpenedOnce({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
