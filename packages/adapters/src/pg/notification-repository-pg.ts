import { NotificationName, type NotificationPreference } from "@wasl/core/Accounts"
import { NotificationRepository, type PendingEmail } from "@wasl/core/Notifications"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { type Columns, columns, DbInt, DbNullOr, DbTimestamp, decodeFirst, decodeRows, selectList } from "./rows.ts"

/**
 * The channel an insert NOTIFYs for a notification whose popup or browser channel is on; the
 * payload is `<account id>:<user id>:<notification id>`.
 */
export const NOTIFICATIONS_CHANNEL = "wasl_notifications"

const PreferenceRow = Schema.Struct({
  name: NotificationName,
  stored: Schema.Boolean,
  popup: Schema.Boolean,
  browser: Schema.Boolean,
  email: Schema.Boolean,
  id: DbInt,
  user_id: DbInt,
  account_id: DbInt,
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const NotificationRow = Schema.Struct({
  id: DbInt,
  type: NotificationName,
  data: Schema.Record(Schema.String, Schema.Unknown),
  popup: Schema.Boolean,
  browser: Schema.Boolean,
  read_at: DbNullOr(DbTimestamp),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const RecipientRow = Schema.Struct({
  user_id: DbInt,
  email: Schema.String,
  stored: Schema.Boolean,
  popup: Schema.Boolean,
  browser: Schema.Boolean,
  mail: Schema.Boolean
})

const EmailRow = Schema.Struct({
  account_id: DbInt,
  id: DbInt,
  to: Schema.String,
  email_subject: Schema.String,
  email_text: Schema.String
})

/** The columns of a notification preference. */
export const PREFERENCE_COLUMNS: Columns = columns("name", "stored", "popup", "browser", "email", "id", "user_id", "account_id",
  "created_at", "updated_at")

/** The user's stored preferences in the account (`PREFERENCES_ORDER` is their order). */
export const preferencesOf = (sql: SqlClient.SqlClient, accountId: number, userId: number): Statement.Fragment => sql`
  FROM notification_preferences WHERE account_id = ${accountId} AND user_id = ${userId}`

/** The order of a user's preferences: by id. */
export const PREFERENCES_ORDER = "id"

/** `unread`: how many unread notifications the user can see (`stored` ones) in the account. */
export const unreadCountOf = (
  sql: SqlClient.SqlClient,
  accountId: number,
  userId: number
): Statement.Statement<{ readonly unread: number }> => sql`
  SELECT count(*)::int4 AS unread FROM notifications
  WHERE account_id = ${accountId} AND user_id = ${userId} AND read_at IS NULL AND stored`

/** The count of an {@link unreadCountOf} row. */
export const toUnreadCount = (row: { readonly unread: number } | undefined): number => Number(row?.unread ?? 0)

const NOTIFICATION_COLUMNS = "id, type, data, popup, browser, read_at, created_at, coalesce(updated_at, created_at) AS updated_at"

/** Rows of {@link PREFERENCE_COLUMNS}, as `NotificationPreference`s. */
export const decodePreferences: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<NotificationPreference>> = decodeRows(
  PreferenceRow
)
const decodePreference = decodeFirst(PreferenceRow)
const decodeNotifications = decodeRows(NotificationRow)
const decodeNotification = decodeFirst(NotificationRow)
const decodeRecipients = decodeRows(RecipientRow)
const decodeEmails = decodeRows(EmailRow)


/** Notification preferences, notifications and their mail queue on PostgreSQL. */
export const NotificationRepositoryPg: Layer.Layer<NotificationRepository, never, SqlClient.SqlClient> = Layer.effect(
  NotificationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const preferenceColumns = sql.literal(selectList(PREFERENCE_COLUMNS))
    const notificationColumns = sql.literal(NOTIFICATION_COLUMNS)

    return NotificationRepository.of({
      listPreferences: (accountId, userId) =>
        sql`
          SELECT ${preferenceColumns} ${preferencesOf(sql, accountId, userId)} ORDER BY ${sql.literal(PREFERENCES_ORDER)}
        `.pipe(
          Effect.flatMap(decodePreferences),
          Effect.map((rows): ReadonlyArray<NotificationPreference> => rows),
          Effect.orDie
        ),

      unreadCount: (accountId, userId) =>
        unreadCountOf(sql, accountId, userId).pipe(
          Effect.map((rows) => toUnreadCount(rows[0])),
          Effect.orDie
        ),

      savePreference: (accountId, userId, name, channels, now) =>
        sql`
          INSERT INTO notification_preferences
            (account_id, user_id, name, stored, popup, browser, email, created_at, updated_at)
          VALUES (${accountId}, ${userId}, ${name}, ${channels.stored}, ${channels.popup}, ${channels.browser},
                  ${channels.email}, ${DateTime.toDateUtc(now)}, ${DateTime.toDateUtc(now)})
          ON CONFLICT (account_id, user_id, name) DO UPDATE
          SET stored = EXCLUDED.stored, popup = EXCLUDED.popup, browser = EXCLUDED.browser,
              email = EXCLUDED.email, updated_at = EXCLUDED.updated_at
          RETURNING ${preferenceColumns}
        `.pipe(
          Effect.flatMap(decodePreference),
          Effect.map((row) => Option.getOrThrow(row) as NotificationPreference),
          Effect.orDie
        ),

      recipients: (accountId, permission, name) =>
        sql`
          SELECT u.id AS user_id, u.email,
                 coalesce(p.stored, true) AS stored, coalesce(p.popup, true) AS popup,
                 coalesce(p.browser, true) AS browser, coalesce(p.email, true) AS mail
          FROM account_user au
          JOIN users u ON u.id = au.user_id
          LEFT JOIN notification_preferences p
            ON p.account_id = au.account_id AND p.user_id = au.user_id AND p.name = ${name}
          WHERE au.account_id = ${accountId} AND au.status = 'active'
            AND EXISTS (
              SELECT 1 FROM team_user tu
              JOIN teams t ON t.account_id = tu.account_id AND t.id = tu.team_id
              WHERE tu.account_id = au.account_id AND tu.user_id = au.user_id
                AND ${permission} = ANY (t.permissions)
            )
          ORDER BY u.id
        `.pipe(
          Effect.flatMap(decodeRecipients),
          Effect.map((rows) =>
            rows.map((r) => ({
              userId: r.user_id,
              email: r.email,
              channels: { stored: r.stored, popup: r.popup, browser: r.browser, email: r.mail }
            }))
          ),
          Effect.orDie
        ),

      // The NOTIFY is part of the insert's transaction: PostgreSQL delivers it at commit, to the
      // NotificationFeedPg of every process, and drops it on rollback.
      insert: (n) =>
        sql`
          WITH inserted AS (
            INSERT INTO notifications
              (account_id, user_id, type, data, stored, popup, browser, email_subject, email_text, created_at, updated_at)
            VALUES (${n.accountId}, ${n.userId}, ${n.type}, ${JSON.stringify(n.data)}::jsonb, ${n.channels.stored},
                    ${n.channels.popup}, ${n.channels.browser}, ${n.email?.subject ?? null}, ${n.email?.text ?? null},
                    ${DateTime.toDateUtc(n.now)}, ${DateTime.toDateUtc(n.now)})
            RETURNING account_id, user_id, id, popup, browser
          )
          SELECT pg_notify(${NOTIFICATIONS_CHANNEL}, account_id || ':' || user_id || ':' || id)
          FROM inserted WHERE popup OR browser
        `.pipe(Effect.asVoid, Effect.orDie),

      lastMailedAbout: (accountId, userId, type, key, value) =>
        sql`
          SELECT created_at FROM notifications
          WHERE account_id = ${accountId} AND user_id = ${userId} AND type = ${type}
            AND email_subject IS NOT NULL AND data ->> ${key} = ${value}
          ORDER BY created_at DESC LIMIT 1
        `.pipe(
          Effect.flatMap(decodeFirst(Schema.Struct({ created_at: DbTimestamp }))),
          Effect.map(Option.map((row) => row.created_at)),
          Effect.orDie
        ),

      findLive: (accountId, userId, id) =>
        sql`
          SELECT ${notificationColumns} FROM notifications
          WHERE account_id = ${accountId} AND user_id = ${userId} AND id = ${id} AND (popup OR browser)
        `.pipe(Effect.flatMap(decodeNotification), Effect.orDie),

      listLiveAfter: (accountId, userId, afterId, limit) =>
        sql`
          SELECT * FROM (
            SELECT ${notificationColumns} FROM notifications
            WHERE account_id = ${accountId} AND user_id = ${userId} AND id > ${afterId}
              AND (popup OR browser) AND read_at IS NULL
            ORDER BY id DESC LIMIT ${limit}
          ) newest ORDER BY id
        `.pipe(Effect.flatMap(decodeNotifications), Effect.orDie),

      list: (accountId, userId, page) =>
        Effect.gen(function*() {
          const rows = yield* sql`
            SELECT ${notificationColumns} FROM notifications
            WHERE account_id = ${accountId} AND user_id = ${userId} AND stored
            ORDER BY id DESC
            LIMIT ${page.limit} OFFSET ${page.offset}
          `.pipe(Effect.flatMap(decodeNotifications))
          const total = yield* sql<{ count: number }>`
            SELECT count(*)::int4 AS count FROM notifications
            WHERE account_id = ${accountId} AND user_id = ${userId} AND stored
          `
          return { items: rows, total: Number(total[0]?.count ?? 0) }
        }).pipe(Effect.orDie),

      markRead: (accountId, userId, id, now) =>
        sql`
          UPDATE notifications
          SET read_at = coalesce(read_at, ${DateTime.toDateUtc(now)}),
              updated_at = CASE WHEN read_at IS NULL THEN ${DateTime.toDateUtc(now)} ELSE updated_at END
          WHERE account_id = ${accountId} AND user_id = ${userId} AND id = ${id} AND stored
          RETURNING ${notificationColumns}
        `.pipe(Effect.flatMap(decodeNotification), Effect.orDie),

      claimEmails: (limit, maxAttempts) =>
        sql`
          SELECT n.account_id, n.id, u.email AS "to", n.email_subject, n.email_text
          FROM notifications n JOIN users u ON u.id = n.user_id
          WHERE n.email_subject IS NOT NULL AND n.emailed_at IS NULL AND n.email_attempts < ${maxAttempts}
          ORDER BY n.created_at, n.id
          LIMIT ${limit}
          FOR UPDATE OF n SKIP LOCKED
        `.pipe(
          Effect.flatMap(decodeEmails),
          Effect.map((rows): ReadonlyArray<PendingEmail> =>
            rows.map((r) => ({
              accountId: r.account_id,
              notificationId: r.id,
              to: r.to,
              subject: r.email_subject,
              text: r.email_text
            }))
          ),
          Effect.orDie
        ),

      emailSent: (email, now) =>
        sql`
          UPDATE notifications SET emailed_at = ${DateTime.toDateUtc(now)}, email_attempts = email_attempts + 1
          WHERE account_id = ${email.accountId} AND id = ${email.notificationId}
        `.pipe(Effect.asVoid, Effect.orDie),

      emailFailed: (email) =>
        sql`
          UPDATE notifications SET email_attempts = email_attempts + 1
          WHERE account_id = ${email.accountId} AND id = ${email.notificationId}
        `.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
