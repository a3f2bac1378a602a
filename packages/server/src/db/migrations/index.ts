import type { Kysely } from 'kysely';
import * as m0001 from './0001_spine';
import * as m0002 from './0002_users_coins_messages';
import * as m0003 from './0003_append_only';
import * as m0004 from './0004_kept_counts';
import * as m0005 from './0005_short_search';
import * as m0006 from './0006_bigint_balances';
import * as m0007 from './0007_idempotency_keys';
import * as m0008 from './0008_nickname_pieces';
import * as m0009 from './0009_sign_in_hardening';
import * as m0010 from './0010_digit_suffixes';
import * as m0011 from './0011_upload_claims';
import * as m0012 from './0012_forget_stored_sign_ups';
import * as m0013 from './0013_apps';
import * as m0014 from './0014_roles';
import type { Dialect } from './helpers';

export interface Migration {
  name: string;
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Versioned migrations, applied in order at start-up. Append only; never edit a shipped one. */
export const migrations: Migration[] = [
  { name: '0001_spine', ...m0001 },
  { name: '0002_users_coins_messages', ...m0002 },
  { name: '0003_append_only', ...m0003 },
  { name: '0004_kept_counts', ...m0004 },
  { name: '0005_short_search', ...m0005 },
  { name: '0006_bigint_balances', ...m0006 },
  { name: '0007_idempotency_keys', ...m0007 },
  { name: '0008_nickname_pieces', ...m0008 },
  { name: '0009_sign_in_hardening', ...m0009 },
  { name: '0010_digit_suffixes', ...m0010 },
  { name: '0011_upload_claims', ...m0011 },
  { name: '0012_forget_stored_sign_ups', ...m0012 },
  { name: '0013_apps', ...m0013 },
  { name: '0014_roles', ...m0014 },
];
