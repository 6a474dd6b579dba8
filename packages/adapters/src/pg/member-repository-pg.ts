import { type Member, MemberRepository, MembershipStatus, type Roster } from "@wasl/core/Accounts"
import { Permission } from "@wasl/core/Auth"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbSqlDateTime, DbTimestamp, decodeFirst, decodeRows, nowParam } from "./rows.ts"

const MemberRow = Schema.Struct({
  id: DbInt,
  email: Schema.String,
  firstname: Schema.String,
  lastname: Schema.String,
  image: Schema.NullOr(Schema.String),
  status: MembershipStatus,
  teams: Schema.Array(Schema.Struct({ id: DbInt, name: Schema.String })),
  last_used: DbNullOr(DbSqlDateTime),
  created_at: DbTimestamp
})
type MemberRow = typeof MemberRow.Type

const toMember = ({ created_at, email, firstname, id, image, last_used, lastname, status, teams }: MemberRow): Member => ({
  user: { id, email, firstname, lastname, image },
  status,
  teams,
  last_used,
  created_at
})

const RosterMemberRow = Schema.Struct({
  user_id: DbInt,
  status: MembershipStatus,
  team_ids: Schema.Array(DbInt)
})
const RosterTeamRow = Schema.Struct({ id: DbInt, permissions: Schema.Array(Permission) })

const decodeMember = decodeFirst(MemberRow)
const decodeMembers = decodeRows(MemberRow)
const decodeRosterMembers = decodeRows(RosterMemberRow)
const decodeRosterTeams = decodeRows(RosterTeamRow)

/** A member's columns, over `account_user au JOIN users u`. */
const MEMBER_COLUMNS = `u.id, u.email, u.firstname, u.lastname, u.image, au.status, au.last_used, au.created_at,
  coalesce((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.id)
            FROM team_user tu JOIN teams t ON t.account_id = tu.account_id AND t.id = tu.team_id
            WHERE tu.account_id = au.account_id AND tu.user_id = au.user_id), '[]'::json) AS teams`

/**
 * An account's members on PostgreSQL (`account_user` with the user and its teams). Removing a
 * membership cascades to what hangs off it (team places, tokens, sessions, preferences,
 * notifications), and the caches' triggers announce each of those changes to every process.
 */
export const MemberRepositoryPg: Layer.Layer<MemberRepository, never, SqlClient.SqlClient> = Layer.effect(
  MemberRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const memberColumns = sql.literal(MEMBER_COLUMNS)

    const list = (accountId: number, page: { readonly offset: number; readonly limit: number }) =>
      Effect.gen(function*() {
        const rows = yield* sql`
          SELECT ${memberColumns} FROM account_user au JOIN users u ON u.id = au.user_id
          WHERE au.account_id = ${accountId}
          ORDER BY au.created_at, au.user_id LIMIT ${page.limit} OFFSET ${page.offset}
        `.pipe(Effect.flatMap(decodeMembers))
        const [counted] = yield* sql<{ count: number }>`
          SELECT count(*)::int4 AS count FROM account_user WHERE account_id = ${accountId}
        `
        return { items: rows.map(toMember), total: Number(counted?.count ?? 0) }
      }).pipe(Effect.orDie)

    const find = (accountId: number, userId: number) =>
      sql`
        SELECT ${memberColumns} FROM account_user au JOIN users u ON u.id = au.user_id
        WHERE au.account_id = ${accountId} AND au.user_id = ${userId}
      `.pipe(Effect.flatMap(decodeMember), Effect.map(Option.map(toMember)), Effect.orDie)

    const roster = (accountId: number) =>
      Effect.gen(function*() {
        const members = yield* sql`
          SELECT au.user_id, au.status,
                 ARRAY(SELECT tu.team_id FROM team_user tu WHERE tu.account_id = au.account_id AND tu.user_id = au.user_id)
                   AS team_ids
          FROM account_user au WHERE au.account_id = ${accountId}
          ORDER BY au.user_id FOR UPDATE OF au
        `.pipe(Effect.flatMap(decodeRosterMembers))
        const teams = yield* sql`SELECT id, permissions FROM teams WHERE account_id = ${accountId} ORDER BY id`.pipe(
          Effect.flatMap(decodeRosterTeams)
        )
        return {
          members: members.map((row) => ({ userId: row.user_id, status: row.status, teamIds: row.team_ids })),
          teams
        } satisfies Roster
      }).pipe(Effect.orDie)

    const setStatus = (accountId: number, userId: number, status: "active" | "suspended") =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`
          UPDATE account_user SET status = ${status}, updated_at = ${now}
          WHERE account_id = ${accountId} AND user_id = ${userId}
        `.pipe(Effect.asVoid, Effect.orDie))

    // Only the rows that change are written: a team the member stays in keeps its pivot.
    const setTeams = (accountId: number, userId: number, teamIds: ReadonlyArray<number>) =>
      Effect.gen(function*() {
        const { param: now } = yield* nowParam
        const wanted = [...new Set(teamIds)]
        yield* sql`
          DELETE FROM team_user WHERE account_id = ${accountId} AND user_id = ${userId} AND NOT (team_id = ANY (${wanted}::bigint[]))
        `
        if (wanted.length > 0) {
          yield* sql`
            INSERT INTO team_user (account_id, team_id, user_id, created_at, updated_at)
            SELECT ${accountId}, t, ${userId}, ${now}, ${now} FROM unnest(${wanted}::bigint[]) AS t
            ON CONFLICT (account_id, team_id, user_id) DO NOTHING
          `
        }
      }).pipe((effect) => sql.withTransaction(effect), Effect.orDie)

    const remove = (accountId: number, userId: number) =>
      sql`DELETE FROM account_user WHERE account_id = ${accountId} AND user_id = ${userId} RETURNING user_id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    return MemberRepository.of({ list, find, roster, setStatus, setTeams, remove })
  })
)
