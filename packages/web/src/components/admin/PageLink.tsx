import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { linkAllowed } from '../../layouts/pageAccess';
import { useGrants } from '../../state/grants';

/** True when the operator may open the console page `url` leads to (`/admin/admin/users?…`). */
export function usePageOpens(): (url: string) => boolean {
  const { can } = useGrants();
  return (url: string) => linkAllowed(url, can);
}

/**
 * A link to another console page (a user's detail, a record's list) that is plain text when the
 * operator's roles do not open that page: no link that ends on 无权访问.
 */
export function PageLink({
  to,
  title,
  className,
  children,
  'aria-label': ariaLabel,
}: {
  to: string;
  title?: string;
  className?: string;
  children: ReactNode;
  'aria-label'?: string;
}) {
  const opens = usePageOpens();
  if (!opens(to)) return <span className={className}>{children}</span>;
  return (
    <Link to={to} title={title} className={className} aria-label={ariaLabel}>
      {children}
    </Link>
  );
}
