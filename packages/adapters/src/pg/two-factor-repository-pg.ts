import { type TwoFactorState, TwoFactorRepository } from "@wasl/core/Auth"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DbInt, DbNullOr, DbTimestamp, decodeFirst, nowParam } from "./rows.ts"

const TwoFactorRow = Schema.Struct({
  two_factor_secret: Schema.NullOr(Schema.String),
  two_factor_confirmed_at: DbNullOr(DbTimestamp),
  two_factor_recovery_codes: Schema.Array(Schema.String),
  two_factor_last_step: DbNullOr(DbInt)
})

const decodeTwoFactor = decodeFirst(TwoFactorRow)

/**
 * Users' two-factor state on PostgreSQL, in the `users` row. Each guarded write is one
 * conditional `UPDATE … WHERE`, answering whether a row matched, so two concurrent requests never
 * both use one time step or one recovery code.
 */
export const TwoFactorRepositoryPg: Layer.Layer<TwoFactorRepository, never, SqlClient.SqlClient> = Layer.effect(
  TwoFactorRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Whether the statement (an UPDATE … RETURNING id) changed a row.
    const changed = (statement: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
      statement.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    const find = (userId: number) =>
      sql`
        SELECT two_factor_secret, two_factor_confirmed_at, two_factor_recovery_codes, two_factor_last_step
        FROM users WHERE id = ${userId}
      `.pipe(
        Effect.flatMap(decodeTwoFactor),
        Effect.map(Option.map((row): TwoFactorState => ({
          sealedSecret: row.two_factor_secret,
          confirmedAt: row.two_factor_confirmed_at,
          recoveryCodeHashes: row.two_factor_recovery_codes,
          lastUsedStep: row.two_factor_last_step
        }))),
        Effect.orDie
      )

    const begin = (userId: number, sealedSecret: string) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        changed(sql`
          UPDATE users SET two_factor_secret = ${sealedSecret}, two_factor_recovery_codes = '{}',
                           two_factor_last_step = NULL, updated_at = ${now}
          WHERE id = ${userId} AND two_factor_confirmed_at IS NULL
          RETURNING id
        `))

    const confirm = (userId: number, confirmation: Parameters<TwoFactorRepository["Service"]["confirm"]>[1]) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        changed(sql`
          UPDATE users SET two_factor_confirmed_at = ${DateTime.toDateUtc(confirmation.confirmedAt)},
                           two_factor_recovery_codes = ${confirmation.recoveryCodeHashes}::text[],
                           two_factor_last_step = ${confirmation.step}, updated_at = ${now}
          WHERE id = ${userId} AND two_factor_confirmed_at IS NULL AND two_factor_secret = ${confirmation.sealedSecret}
          RETURNING id
        `))

    const useStep = (userId: number, step: number) =>
      changed(sql`
        UPDATE users SET two_factor_last_step = ${step}
        WHERE id = ${userId} AND (two_factor_last_step IS NULL OR two_factor_last_step < ${step})
        RETURNING id
      `)

    const useRecoveryCode = (userId: number, codeHash: string) =>
      changed(sql`
        UPDATE users SET two_factor_recovery_codes = array_remove(two_factor_recovery_codes, ${codeHash})
        WHERE id = ${userId} AND ${codeHash} = ANY (two_factor_recovery_codes)
        RETURNING id
      `)

    const disable = (userId: number) =>
      Effect.flatMap(nowParam, ({ param: now }) =>
        sql`
          UPDATE users SET two_factor_secret = NULL, two_factor_confirmed_at = NULL, two_factor_recovery_codes = '{}',
                           two_factor_last_step = NULL, updated_at = ${now}
          WHERE id = ${userId}
        `.pipe(Effect.asVoid, Effect.orDie))

    return TwoFactorRepository.of({ find, begin, confirm, useStep, useRecoveryCode, disable })
  })
)
