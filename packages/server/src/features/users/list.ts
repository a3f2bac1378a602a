import type { UserListFilter } from '@appdesk/contract';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db, Dialect } from '../../db/index';
import type { Database } from '../../db/schema';

type Filter = Required<Omit<UserListFilter, 'order'>>;

const sortColumn = { createdAt: 'created_at', lastActiveAt: 'last_active_at', coins: 'coins' } as const;

/**
 * The search condition: an exact id, and phone or nickname containing the text. Substring
 * search uses the trigram index of each database (FTS5 trigram on SQLite, pg_trgm on
 * PostgreSQL), which needs three characters; shorter text matches by prefix, which the
 * ordinary indexes serve.
 */
function searchCondition(dialect: Dialect, search: string) {
  return (eb: ExpressionBuilder<Database, 'users'>) => {
    const ors = [];
    if (/^\d{1,9}$/.test(search)) ors.push(eb('users.id', '=', Number(search)));
    if ([...search].length >= 3) {
      if (dialect === 'sqlite') {
        // A phrase query: quotes inside the text are doubled, so it is never FTS syntax.
        const phrase = `"${search.replaceAll('"', '""')}"`;
        ors.push(
          eb('users.id', 'in', sql<number>`(select rowid from users_search where users_search match ${phrase})`),
        );
      } else {
        const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        ors.push(eb('users.phone', 'like', pattern), eb('users.nickname', 'like', pattern));
      }
    } else {
      const upper = `${search}\uffff`;
      ors.push(
        eb.and([eb('users.phone', '>=', search), eb('users.phone', '<', upper)]),
        eb.and([eb('users.nickname', '>=', search), eb('users.nickname', '<', upper)]),
      );
    }
    return eb.or(ors);
  };
}

/** The users matching a list filter, unordered: callers add select, order and limits. */
export function filteredUsers(db: Db, dialect: Dialect, filter: Pick<Filter, 'status' | 'search'>) {
  let query = db.selectFrom('users');
  if (filter.status === 'normal' || filter.status === 'blocked') query = query.where('status', '=', filter.status);
  if (filter.status === 'admin') query = query.where('is_admin', '=', 1);
  if (filter.search) query = query.where(searchCondition(dialect, filter.search));
  return query;
}

export function userOrder(filter: Pick<Filter, 'sort'> & { order?: 'ascend' | 'descend' }) {
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  return { column: sortColumn[filter.sort], direction } as const;
}
