/**
 * Campaigns on PostgreSQL (tables `campaigns` and `campaign_recipients`, migrations 0051 and 0055).
 *
 * `claimDue` takes the waiting campaign whose turn is oldest with `FOR UPDATE SKIP LOCKED`, and
 * `claimRecipients` the first pending recipients the same way, so any number of workers share the
 * campaigns and never claim one recipient twice: a recipient moves out of `pending` once, and out
 * of `sending` once (`settleRecipient` moves only a `sending` one). The counts are read from the
 * recipients and their messages' own statuses in one aggregate.
 */
import {
  type Campaign,
  type CampaignCounts,
  type CampaignRecipient,
  CampaignRepository,
  CAMPAIGN_STATUSES,
  type NewRecipient,
  RECIPIENT_STATUSES,
  type RecipientOutcome
} from "@wasl/core/Messaging"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeFirst, decodeRows } from "../rows.ts"

const Texts = Schema.Array(Schema.String)

const CampaignRow = Schema.Struct({
  account_id: DbInt,
  id: Schema.String,
  name: Schema.String,
  broadcast_id: DbInt,
  user_id: DbInt,
  // jsonb: the driver parses it.
  audience: Schema.Union([
    Schema.Struct({ _tag: Schema.Literal("Contacts"), contactIds: Texts }),
    Schema.Struct({ _tag: Schema.Literal("Query"), query: Schema.Record(Schema.String, Schema.String) })
  ]),
  parameters: Schema.Struct({
    body: Schema.Array(Schema.Union([Schema.String, Schema.Struct({ property: Schema.String })])),
    header: Schema.Array(Schema.Union([Schema.String, Schema.Struct({ property: Schema.String })]))
  }),
  status: Schema.Literals(CAMPAIGN_STATUSES),
  reason: Schema.NullOr(Schema.String),
  audience_after: Schema.NullOr(Schema.String),
  audience_count: DbInt,
  audience_resolved: Schema.Boolean,
  resume_at: DbNullOr(DbTimestamp),
  lease_until: DbNullOr(DbTimestamp),
  turn_at: DbTimestamp,
  scheduled_at: DbNullOr(DbTimestamp),
  started_at: DbNullOr(DbTimestamp),
  completed_at: DbNullOr(DbTimestamp),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})

const toCampaign = (r: typeof CampaignRow.Type): Campaign => ({
  accountId: r.account_id,
  id: r.id,
  name: r.name,
  broadcastId: r.broadcast_id,
  userId: r.user_id,
  audience: r.audience,
  parameters: r.parameters,
  status: r.status,
  reason: r.reason,
  audienceAfter: r.audience_after,
  audienceCount: r.audience_count,
  audienceResolved: r.audience_resolved,
  resumeAt: r.resume_at,
  leaseUntil: r.lease_until,
  turnAt: r.turn_at,
  scheduledAt: r.scheduled_at,
  startedAt: r.started_at,
  completedAt: r.completed_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

const RecipientRow = Schema.Struct({
  account_id: DbInt,
  campaign_id: Schema.String,
  contact_id: Schema.String,
  seq: DbInt,
  digits: Schema.NullOr(Schema.String),
  parameters: Schema.NullOr(Schema.Struct({ body: Texts, header: Texts })),
  status: Schema.Literals(RECIPIENT_STATUSES),
  message_id: Schema.NullOr(Schema.String),
  message_status: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  updated_at: DbTimestamp
})

const toRecipient = (r: typeof RecipientRow.Type): CampaignRecipient => ({
  accountId: r.account_id,
  campaignId: r.campaign_id,
  contactId: r.contact_id,
  seq: r.seq,
  digits: r.digits,
  parameters: r.parameters,
  status: r.status,
  messageId: r.message_id,
  messageStatus: r.message_status,
  reason: r.reason,
  updatedAt: r.updated_at
})

const CountsRow = Schema.Struct({
  campaign_id: Schema.String,
  recipients: DbInt,
  sent: DbInt,
  delivered: DbInt,
  read: DbInt,
  failed: DbInt,
  skipped: DbInt
})

const decodeCampaign = decodeFirst(CampaignRow)
const decodeCampaigns = decodeRows(CampaignRow)
const decodeRecipients = decodeRows(RecipientRow)
const decodeCounts = decodeRows(CountsRow)
const Total = decodeFirst(Schema.Struct({ total: DbInt }))
const at = DateTime.toDateUtc
const atOrNull = (dt: DateTime.Utc | null) => dt === null ? null : at(dt)

/** CampaignRepository on PostgreSQL (`SqlClient`, migrated). */
export const CampaignRepositoryPg: Layer.Layer<CampaignRepository, never, SqlClient.SqlClient> = Layer.effect(
  CampaignRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const one = (rows: ReadonlyArray<unknown>) => Effect.map(decodeCampaign(rows), Option.map(toCampaign))

    const insert = (c: Campaign) =>
      sql`
        INSERT INTO campaigns (account_id, id, name, broadcast_id, user_id, audience, parameters, status, reason,
          audience_after, audience_count, audience_resolved, resume_at, lease_until, turn_at, scheduled_at, started_at,
          completed_at, created_at, updated_at)
        VALUES (${c.accountId}, ${c.id}, ${c.name}, ${c.broadcastId}, ${c.userId}, ${JSON.stringify(c.audience)}::jsonb,
          ${JSON.stringify(c.parameters)}::jsonb, ${c.status}, ${c.reason}, ${c.audienceAfter}, ${c.audienceCount},
          ${c.audienceResolved}, ${atOrNull(c.resumeAt)}, ${atOrNull(c.leaseUntil)}, ${at(c.turnAt)},
          ${atOrNull(c.scheduledAt)}, ${atOrNull(c.startedAt)}, ${atOrNull(c.completedAt)}, ${at(c.createdAt)},
          ${at(c.updatedAt)})
      `.pipe(Effect.asVoid, Effect.orDie)

    const get = (accountId: number, id: string) =>
      Effect.flatMap(sql`SELECT * FROM campaigns WHERE account_id = ${accountId} AND id = ${id}`, one).pipe(Effect.orDie)

    const hold = (accountId: number, id: string) =>
      Effect.flatMap(sql`SELECT * FROM campaigns WHERE account_id = ${accountId} AND id = ${id} FOR UPDATE`, one).pipe(
        Effect.orDie
      )

    const update = (c: Campaign) =>
      sql`
        UPDATE campaigns SET status = ${c.status}, reason = ${c.reason}, audience_after = ${c.audienceAfter},
          audience_count = ${c.audienceCount}, audience_resolved = ${c.audienceResolved}, resume_at = ${atOrNull(c.resumeAt)},
          lease_until = ${atOrNull(c.leaseUntil)}, turn_at = ${at(c.turnAt)}, started_at = ${atOrNull(c.startedAt)},
          completed_at = ${atOrNull(c.completedAt)}, updated_at = ${at(c.updatedAt)}
        WHERE account_id = ${c.accountId} AND id = ${c.id}
      `.pipe(Effect.asVoid, Effect.orDie)

    const list = (accountId: number, page: number, perPage: number) =>
      Effect.all({
        rows: Effect.flatMap(
          sql`
            SELECT * FROM campaigns WHERE account_id = ${accountId}
            ORDER BY created_at DESC, id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}
          `,
          decodeCampaigns
        ),
        total: Effect.flatMap(sql`SELECT count(*) AS total FROM campaigns WHERE account_id = ${accountId}`, Total)
      }).pipe(
        Effect.map(({ rows, total }) => ({ rows: rows.map(toCampaign), total: Option.match(total, { onNone: () => 0, onSome: (t) => t.total }) })),
        Effect.orDie
      )

    const counts = (accountId: number, ids: ReadonlyArray<string>) =>
      ids.length === 0
        ? Effect.succeed(new Map<string, CampaignCounts>())
        : Effect.flatMap(
          sql`
            SELECT r.campaign_id,
              count(*) AS recipients,
              count(*) FILTER (WHERE r.status = 'sent') AS sent,
              count(*) FILTER (WHERE r.status = 'sent' AND m.status IN ('delivered', 'read')) AS delivered,
              count(*) FILTER (WHERE r.status = 'sent' AND m.status = 'read') AS read,
              count(*) FILTER (WHERE r.status = 'failed' OR (r.status = 'sent' AND m.status = 'failed')) AS failed,
              count(*) FILTER (WHERE r.status = 'skipped') AS skipped
            FROM campaign_recipients r
            LEFT JOIN messages m ON m.account_id = r.account_id AND m.id = r.message_id
            WHERE r.account_id = ${accountId} AND r.campaign_id IN ${sql.in(ids)}
            GROUP BY r.campaign_id
          `,
          decodeCounts
        ).pipe(
          Effect.map((rows) => new Map(rows.map(({ campaign_id, ...c }) => [campaign_id, c] as const))),
          Effect.orDie
        )

    const addRecipients = (accountId: number, campaignId: string, recipients: ReadonlyArray<NewRecipient>, now: DateTime.Utc) =>
      recipients.length === 0 ? Effect.void : sql`
        INSERT INTO campaign_recipients (account_id, campaign_id, contact_id, seq, digits, parameters, status, reason, updated_at)
        SELECT ${accountId}, ${campaignId}, x.contact_id, x.seq, x.digits, x.parameters, x.status, x.reason, ${at(now)}
        FROM jsonb_to_recordset(${JSON.stringify(recipients.map((r) => ({
        contact_id: r.contactId,
        seq: r.seq,
        digits: r.digits,
        parameters: r.parameters,
        status: r.status,
        reason: r.reason
      })))}::jsonb) AS x(contact_id text, seq integer, digits text, parameters jsonb, status text, reason text)
        ON CONFLICT (account_id, campaign_id, contact_id) DO NOTHING
      `.pipe(Effect.asVoid, Effect.orDie)

    const claimRecipients = (accountId: number, campaignId: string, limit: number, now: DateTime.Utc, fromSeq = 0) =>
      Effect.flatMap(
        sql`
          WITH picked AS (
            SELECT contact_id FROM campaign_recipients
            WHERE account_id = ${accountId} AND campaign_id = ${campaignId} AND status = 'pending'
              AND seq >= ${Math.max(0, Math.floor(fromSeq))}
            ORDER BY seq LIMIT ${Math.max(0, Math.floor(limit))}
            FOR UPDATE SKIP LOCKED
          )
          UPDATE campaign_recipients r SET status = 'sending', updated_at = ${at(now)}
          FROM picked p
          WHERE r.account_id = ${accountId} AND r.campaign_id = ${campaignId} AND r.contact_id = p.contact_id
          RETURNING r.*, NULL::text AS message_status
        `,
        decodeRecipients
      ).pipe(Effect.map((rows) => rows.map(toRecipient).sort((a, b) => a.seq - b.seq)), Effect.orDie)

    const settleRecipient = (
      accountId: number,
      campaignId: string,
      contactId: string,
      outcome: RecipientOutcome,
      now: DateTime.Utc
    ) => {
      const status = outcome._tag === "Sent" ? "sent" : outcome._tag === "Failed" ? "failed" : "pending"
      return sql`
        UPDATE campaign_recipients SET status = ${status},
          message_id = ${outcome._tag === "Sent" ? outcome.messageId : null},
          reason = ${outcome._tag === "Failed" ? outcome.reason : null}, updated_at = ${at(now)}
        WHERE account_id = ${accountId} AND campaign_id = ${campaignId} AND contact_id = ${contactId} AND status = 'sending'
        RETURNING contact_id
      `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
    }

    const markSent = (
      accountId: number,
      campaignId: string,
      sent: ReadonlyArray<{ readonly contactId: string; readonly messageId: string }>,
      now: DateTime.Utc
    ) =>
      sent.length === 0 ? Effect.succeed(0) : sql`
        UPDATE campaign_recipients r SET status = 'sent', message_id = x.message_id, reason = NULL, updated_at = ${at(now)}
        FROM unnest(${sent.map((s) => s.contactId)}::text[], ${sent.map((s) => s.messageId)}::text[]) AS x(contact_id, message_id)
        WHERE r.account_id = ${accountId} AND r.campaign_id = ${campaignId}
          AND r.contact_id = ANY(${sent.map((s) => s.contactId)}::text[]) AND r.contact_id = x.contact_id
          AND r.status = 'sending'
        RETURNING r.contact_id
      `.pipe(Effect.map((rows) => rows.length), Effect.orDie)

    const sending = (accountId: number, campaignId: string) =>
      sql`
        SELECT r.*, NULL AS message_status FROM campaign_recipients r
        WHERE r.account_id = ${accountId} AND r.campaign_id = ${campaignId} AND r.status = 'sending'
        ORDER BY r.seq
      `.pipe(Effect.flatMap(decodeRecipients), Effect.map((rows) => rows.map(toRecipient)), Effect.orDie)

    const unsettled = (accountId: number, campaignId: string) =>
      Effect.flatMap(
        sql`
          SELECT count(*) AS total FROM campaign_recipients
          WHERE account_id = ${accountId} AND campaign_id = ${campaignId} AND status IN ('pending', 'sending')
        `,
        Total
      ).pipe(Effect.map(Option.match({ onNone: () => 0, onSome: (t) => t.total })), Effect.orDie)

    const listRecipients = (accountId: number, campaignId: string, page: number, perPage: number) =>
      Effect.all({
        rows: Effect.flatMap(
          sql`
            SELECT r.*, m.status AS message_status FROM campaign_recipients r
            LEFT JOIN messages m ON m.account_id = r.account_id AND m.id = r.message_id
            WHERE r.account_id = ${accountId} AND r.campaign_id = ${campaignId}
            ORDER BY r.seq LIMIT ${perPage} OFFSET ${(page - 1) * perPage}
          `,
          decodeRecipients
        ),
        total: Effect.flatMap(
          sql`SELECT count(*) AS total FROM campaign_recipients WHERE account_id = ${accountId} AND campaign_id = ${campaignId}`,
          Total
        )
      }).pipe(
        Effect.map(({ rows, total }) => ({ rows: rows.map(toRecipient), total: Option.match(total, { onNone: () => 0, onSome: (t) => t.total }) })),
        Effect.orDie
      )

    // The row is answered as it was before the claim: a lease still set means its last worker died.
    const claimDue = (now: DateTime.Utc, leaseUntil: DateTime.Utc) =>
      Effect.flatMap(
        sql`
          WITH picked AS (
            SELECT account_id, id FROM campaigns
            WHERE status IN ('scheduled', 'queued', 'running', 'paused')
              AND (status <> 'scheduled' OR scheduled_at <= ${at(now)})
              AND (resume_at IS NULL OR resume_at <= ${at(now)})
              AND (lease_until IS NULL OR lease_until < ${at(now)})
            ORDER BY turn_at, created_at, account_id, id
            LIMIT 1
            FOR UPDATE SKIP LOCKED
          ),
          before AS (SELECT c.* FROM campaigns c JOIN picked p ON c.account_id = p.account_id AND c.id = p.id),
          leased AS (
            UPDATE campaigns c SET lease_until = ${at(leaseUntil)}
            FROM picked p WHERE c.account_id = p.account_id AND c.id = p.id
          )
          SELECT * FROM before
        `,
        one
      ).pipe(Effect.orDie)

    const activeOnPlatform = (accountId: number, platformId: number) =>
      sql`
        SELECT 1 FROM campaigns c JOIN broadcasts b ON b.account_id = c.account_id AND b.id = c.broadcast_id
        WHERE c.account_id = ${accountId} AND b.platform_id = ${platformId}
          AND c.status IN ('scheduled', 'queued', 'running', 'paused')
        LIMIT 1
      `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    return CampaignRepository.of({
      insert,
      get,
      hold,
      update,
      list,
      counts,
      addRecipients,
      claimRecipients,
      settleRecipient,
      markSent,
      sending,
      unsettled,
      listRecipients,
      claimDue,
      activeOnPlatform
    })
  })
)
