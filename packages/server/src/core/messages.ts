import { DEFAULT_APP } from '@appdesk/contract/constants';
import type { Db } from '../db/index';

export interface NewMessage {
  /**
   * The app whose inbox shows it (the record's app it is about: an order's, a claim's). Unset: the
   * app the recipient registered in, and DEFAULT_APP for a broadcast.
   */
  app?: string;
  /** The recipient; null addresses every user (a broadcast). */
  userId: number | null;
  title: string;
  content: string;
  /** The operator who wrote it; null for messages the system sends (a shipped order, a reply). */
  authorId: number | null;
}

/**
 * Sends an in-app message. The one way any feature (shipping, review rewards, feedback replies)
 * reaches a user's inbox: call it inside the transaction that records why, so the message exists
 * exactly when the change does. Answers the new message's id.
 */
export async function sendMessage(db: Db, message: NewMessage): Promise<number> {
  const now = Date.now();
  const app = message.app ?? (message.userId === null ? DEFAULT_APP : await registeredIn(db, message.userId));
  const row = await db
    .insertInto('messages')
    .values({
      app,
      title: message.title,
      content: message.content,
      user_id: message.userId,
      blocked: 0,
      author_id: message.authorId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function registeredIn(db: Db, userId: number): Promise<string> {
  const user = await db.selectFrom('users').select('app').where('id', '=', userId).executeTakeFirst();
  return user?.app ?? DEFAULT_APP;
}
