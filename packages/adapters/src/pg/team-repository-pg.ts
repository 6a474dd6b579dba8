import { type Team, type TeamDetails, TeamRepository } from "@wasl/core/Accounts"
import { Permission } from "@wasl/core/Auth"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { type Columns, columns, DbInt, DbTimestamp, decodeFirst, decodeRows, nowParam, selectList } from "./rows.ts"

const TeamWithPivotRow = Schema.Struct({
  id: DbInt,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  made_by: Schema.NullOr(DbInt),
  created_at: DbTimestamp,
  updated_at: DbTimestamp,
  account_id: DbInt,
  permissions: Schema.Array(Permission),
  pivot_user_id: DbInt,
  pivot_team_id: DbInt,
  pivot_created_at: DbTimestamp,
  pivot_updated_at: DbTimestamp
})
type TeamWithPivotRow = typeof TeamWithPivotRow.Type

const toTeam = (row: TeamWithPivotRow): Team => ({
  id: row.id,
  name: row.name,
  description: row.description,
  made_by: row.made_by,
  created_at: row.created_at,
  updated_at: row.updated_at,
  account_id: row.account_id,
  pivot: {
    user_id: row.pivot_user_id,
    team_id: row.pivot_team_id,
    created_at: row.pivot_created_at,
    updated_at: row.pivot_updated_at
  },
  permissions: row.permissions
})

/** The columns of a team with one member's pivot, over `team_user tu JOIN teams t`. */
export const TEAM_WITH_PIVOT_COLUMNS: Columns = columns(["id", "t.id"], ["name", "t.name"], ["description", "t.description"],
  ["made_by", "t.made_by"], ["created_at", "t.created_at"], ["updated_at", "t.updated_at"], ["account_id", "t.account_id"],
  ["permissions", "t.permissions"], ["pivot_user_id", "tu.user_id"], ["pivot_team_id", "tu.team_id"],
  ["pivot_created_at", "tu.created_at"], ["pivot_updated_at", "tu.updated_at"])

/** The user's teams in the account with the user's pivot (`TEAMS_ORDER` is their order). */
export const teamsOfUser = (sql: SqlClient.SqlClient, accountId: number, userId: number): Statement.Fragment => sql`
  FROM team_user tu JOIN teams t ON t.account_id = tu.account_id AND t.id = tu.team_id
  WHERE tu.account_id = ${accountId} AND tu.user_id = ${userId}`

/** The order of a user's teams: by id. */
export const TEAMS_ORDER = "t.id"

const TeamDetailsRow = Schema.Struct({
  id: DbInt,
  account_id: DbInt,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  made_by: Schema.NullOr(DbInt),
  permissions: Schema.Array(Permission),
  user_ids: Schema.Array(DbInt),
  created_at: DbTimestamp,
  updated_at: DbTimestamp
})
const decodeDetails = decodeFirst(TeamDetailsRow)
const decodeDetailsRows = decodeRows(TeamDetailsRow)

/** A team's columns with its members' user ids, over `teams t`. */
const TEAM_DETAILS_COLUMNS = `t.id, t.account_id, t.name, t.description, t.made_by, t.permissions,
  ARRAY(SELECT tu.user_id FROM team_user tu WHERE tu.account_id = t.account_id AND tu.team_id = t.id ORDER BY tu.user_id)
    AS user_ids,
  t.created_at, t.updated_at`

const decodeTeam = decodeFirst(TeamWithPivotRow)
const decodeTeamRows = decodeRows(TeamWithPivotRow)

/** Rows of {@link TEAM_WITH_PIVOT_COLUMNS}, as `Team`s. */
export const decodeTeams: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<Team>> = (rows) =>
  Effect.map(decodeTeamRows(rows), (teams) => teams.map(toTeam))

/**
 * Teams and the team_user pivot on PostgreSQL. Members must be members of the
 * team's account (foreign key to account_user). `Team` carries one member's
 * pivot, so `create` returns the team with its first member's pivot and dies
 * when given no member.
 */
export const TeamRepositoryPg: Layer.Layer<TeamRepository, never, SqlClient.SqlClient> = Layer.effect(
  TeamRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const teamWithPivotColumns = sql.literal(selectList(TEAM_WITH_PIVOT_COLUMNS))

    const create = (input: Parameters<TeamRepository["Service"]["create"]>[0], members: ReadonlyArray<number>) =>
      Effect.gen(function*() {
        const memberIds = [...new Set(members)]
        if (memberIds.length === 0) {
          return yield* Effect.die(
            new Error(`TeamRepository.create in account ${input.accountId}: a team needs at least one member (Team carries a pivot)`)
          )
        }
        const { param: now } = yield* nowParam
        const permissions = [...new Set(input.permissions)]
        const inserted = yield* sql<{ id: number | bigint }>`
          INSERT INTO teams (account_id, name, description, made_by, permissions, created_at, updated_at)
          VALUES (${input.accountId}, ${input.name}, ${input.description}, ${input.madeBy},
                  ${permissions}::text[], ${now}, ${now})
          RETURNING id
        `
        const teamId = Number(inserted[0]!.id)
        const pivot = (userId: number) => ({
          account_id: input.accountId,
          team_id: teamId,
          user_id: userId,
          created_at: now,
          updated_at: now
        })
        const [first, ...rest] = memberIds as [number, ...Array<number>]
        yield* sql`INSERT INTO team_user ${sql.insert([pivot(first), ...rest.map(pivot)])}`
        const team = yield* sql`
          SELECT ${teamWithPivotColumns}
          FROM team_user tu JOIN teams t ON t.account_id = tu.account_id AND t.id = tu.team_id
          WHERE tu.account_id = ${input.accountId} AND tu.team_id = ${teamId} AND tu.user_id = ${first}
        `.pipe(Effect.flatMap(decodeTeam))
        return toTeam(Option.getOrThrow(team))
      }).pipe((effect) => sql.withTransaction(effect), Effect.orDie)

    const listForUser = (accountId: number, userId: number) =>
      sql`
        SELECT ${teamWithPivotColumns} ${teamsOfUser(sql, accountId, userId)} ORDER BY ${sql.literal(TEAMS_ORDER)}
      `.pipe(Effect.flatMap(decodeTeams), Effect.orDie)

    const grantsOf = (accountId: number, userId: number) =>
      sql<{ readonly permissions: ReadonlyArray<Permission> }>`
        SELECT coalesce(
          (SELECT array_agg(DISTINCT p) FROM team_user tu
             JOIN teams t ON t.account_id = tu.account_id AND t.id = tu.team_id
             CROSS JOIN LATERAL unnest(t.permissions) AS p
           WHERE tu.account_id = au.account_id AND tu.user_id = au.user_id),
          '{}'::text[]) AS permissions
        FROM account_user au
        WHERE au.account_id = ${accountId} AND au.user_id = ${userId} AND au.status = 'active'
      `.pipe(
        Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(rows[0]!.permissions)),
        Effect.orDie
      )

    const details = sql.literal(TEAM_DETAILS_COLUMNS)
    const find = (accountId: number, id: number) =>
      sql`SELECT ${details} FROM teams t WHERE t.account_id = ${accountId} AND t.id = ${id}`.pipe(
        Effect.flatMap(decodeDetails),
        Effect.map((row): Option.Option<TeamDetails> => row),
        Effect.orDie
      )

    const list = (accountId: number, page: { readonly offset: number; readonly limit: number }) =>
      Effect.gen(function*() {
        const items = yield* sql`
          SELECT ${details} FROM teams t WHERE t.account_id = ${accountId}
          ORDER BY t.id LIMIT ${page.limit} OFFSET ${page.offset}
        `.pipe(Effect.flatMap(decodeDetailsRows))
        const [counted] = yield* sql<{ count: number }>`SELECT count(*)::int4 AS count FROM teams WHERE account_id = ${accountId}`
        return { items, total: Number(counted?.count ?? 0) }
      }).pipe(Effect.orDie)

    const add = (input: Parameters<TeamRepository["Service"]["add"]>[0]) =>
      Effect.gen(function*() {
        const { param: now } = yield* nowParam
        const [inserted] = yield* sql<{ id: number | bigint }>`
          INSERT INTO teams (account_id, name, description, made_by, permissions, created_at, updated_at)
          VALUES (${input.accountId}, ${input.name}, ${input.description}, ${input.madeBy},
                  ${[...new Set(input.permissions)]}::text[], ${now}, ${now})
          RETURNING id
        `
        return Option.getOrThrow(yield* find(input.accountId, Number(inserted!.id)))
      }).pipe(Effect.orDie)

    const update = (accountId: number, id: number, changes: Parameters<TeamRepository["Service"]["update"]>[2]) =>
      Effect.gen(function*() {
        const { param: now } = yield* nowParam
        const updated = yield* sql`
          UPDATE teams SET name = ${changes.name}, description = ${changes.description},
                           permissions = ${[...new Set(changes.permissions)]}::text[], updated_at = ${now}
          WHERE account_id = ${accountId} AND id = ${id}
          RETURNING id
        `
        return updated.length === 0 ? Option.none() : yield* find(accountId, id)
      }).pipe(Effect.orDie)

    const remove = (accountId: number, id: number) =>
      sql`DELETE FROM teams WHERE account_id = ${accountId} AND id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    // Only the rows that change are written: a member who stays keeps its pivot (and announces nothing).
    const setMembers = (accountId: number, id: number, userIds: ReadonlyArray<number>) =>
      Effect.gen(function*() {
        const { param: now } = yield* nowParam
        const wanted = [...new Set(userIds)]
        yield* sql`
          DELETE FROM team_user WHERE account_id = ${accountId} AND team_id = ${id} AND NOT (user_id = ANY (${wanted}::bigint[]))
        `
        if (wanted.length > 0) {
          yield* sql`
            INSERT INTO team_user (account_id, team_id, user_id, created_at, updated_at)
            SELECT ${accountId}, ${id}, u, ${now}, ${now} FROM unnest(${wanted}::bigint[]) AS u
            ON CONFLICT (account_id, team_id, user_id) DO NOTHING
          `
        }
      }).pipe((effect) => sql.withTransaction(effect), Effect.orDie)

    return TeamRepository.of({ create, listForUser, grantsOf, list, find, add, update, remove, setMembers })
  })
)
