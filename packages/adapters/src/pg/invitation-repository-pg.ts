import { type Invitation, InvitationRepository, type StoredInvitation } from "@wasl/core/Accounts"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeFirst, decodeRows, nowParam } from "./rows.ts"

const InvitationRow = Schema.Struct({
  id: DbInt,
  account_id: DbInt,
  email: Schema.String,
  team_ids: Schema.Array(DbInt),
  invited_by: DbNullOr(DbInt),
  expires_at: DbTimestamp,
  created_at: DbTimestamp
})
const StoredInvitationRow = Schema.Struct({
  ...InvitationRow.fields,
  accepted_at: DbNullOr(DbTimestamp),
  revoked_at: DbNullOr(DbTimestamp)
})

const INVITATION_COLUMNS = "id, account_id, email, team_ids, invited_by, expires_at, created_at"

const toInvitation = (row: typeof InvitationRow.Type): Invitation => ({ ...row, status: "invited" })

const decodeInvitation = decodeFirst(InvitationRow)
const decodeInvitations = decodeRows(InvitationRow)
const decodeStored = decodeFirst(StoredInvitationRow)

/** Invitations on PostgreSQL, found by their token's hash (the token itself is never stored). */
export const InvitationRepositoryPg: Layer.Layer<InvitationRepository, never, SqlClient.SqlClient> = Layer.effect(
  InvitationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(INVITATION_COLUMNS)
    const pending = (now: DateTime.Utc) =>
      sql`accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${DateTime.toDateUtc(now)}`

    const create = (input: Parameters<InvitationRepository["Service"]["create"]>[0]) =>
      Effect.gen(function*() {
        const { param: now } = yield* nowParam
        const row = yield* sql`
          INSERT INTO invitations (account_id, email, team_ids, invited_by, token_hash, expires_at, created_at)
          VALUES (${input.accountId}, ${input.email}, ${[...input.teamIds]}::bigint[], ${input.invitedBy}, ${input.tokenHash},
                  ${DateTime.toDateUtc(input.expiresAt)}, ${now})
          RETURNING ${columns}
        `.pipe(Effect.flatMap(decodeInvitation))
        return toInvitation(Option.getOrThrow(row))
      }).pipe(Effect.orDie)

    const listPending = (accountId: number, now: DateTime.Utc, page: { readonly offset: number; readonly limit: number }) =>
      Effect.gen(function*() {
        const rows = yield* sql`
          SELECT ${columns} FROM invitations WHERE account_id = ${accountId} AND ${pending(now)}
          ORDER BY id DESC LIMIT ${page.limit} OFFSET ${page.offset}
        `.pipe(Effect.flatMap(decodeInvitations))
        const [counted] = yield* sql<{ count: number }>`
          SELECT count(*)::int4 AS count FROM invitations WHERE account_id = ${accountId} AND ${pending(now)}
        `
        return { items: rows.map(toInvitation), total: Number(counted?.count ?? 0) }
      }).pipe(Effect.orDie)

    const findByTokenHash = (tokenHash: string) =>
      sql`SELECT ${columns}, accepted_at, revoked_at FROM invitations WHERE token_hash = ${tokenHash}`.pipe(
        Effect.flatMap(decodeStored),
        Effect.map(Option.map(({ accepted_at, revoked_at, ...row }): StoredInvitation => ({
          invitation: toInvitation(row),
          state: accepted_at !== null ? "accepted" : revoked_at !== null ? "revoked" : "pending"
        }))),
        Effect.orDie
      )

    const revoke = (accountId: number, id: number, now: DateTime.Utc) =>
      sql`
        UPDATE invitations SET revoked_at = ${DateTime.toDateUtc(now)}
        WHERE account_id = ${accountId} AND id = ${id} AND accepted_at IS NULL AND revoked_at IS NULL
        RETURNING id
      `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    const accept = (accountId: number, id: number, now: DateTime.Utc) =>
      sql`
        UPDATE invitations SET accepted_at = ${DateTime.toDateUtc(now)}
        WHERE account_id = ${accountId} AND id = ${id} AND ${pending(now)}
        RETURNING id
      `.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    return InvitationRepository.of({ create, listPending, findByTokenHash, revoke, accept })
  })
)
