import { isMobileWidth } from '@appdesk/contract/format';
import { useEffect, useState } from 'react';

/** True under 900 px (docs/spec-notes.md#9-presentation-and-timings), following window resizes. */
export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(() => isMobileWidth(window.innerWidth));
  useEffect(() => {
    const onResize = () => setMobile(isMobileWidth(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mobile;
}
