/**
 * 0032: the permission `account-manage` (changing the account's settings) for every existing
 * Administrators team, which holds every permission; a new account's team gets it when made.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    UPDATE teams SET permissions = array_append(permissions, 'account-manage')
    WHERE name = 'Administrators' AND NOT ('account-manage' = ANY (permissions))
  `
})

export default migration
