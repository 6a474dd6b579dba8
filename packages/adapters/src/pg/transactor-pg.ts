import { Transactor } from "@wasl/core/Deployment"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { isSqlError } from "effect/sql/SqlError"

/** Carries the effect's own failure through `withTransaction`, so it is told apart from the transaction's. */
class Rollback<E> {
  readonly error: E
  constructor(error: E) {
    this.error = error
  }
}

/**
 * `sql.withTransaction`: one PostgreSQL transaction (a savepoint when nested).
 * Any failure, defect or interruption of the effect rolls it back and is
 * passed on unchanged; a failure of BEGIN/COMMIT/ROLLBACK itself is a defect.
 */
export const TransactorPg: Layer.Layer<Transactor, never, SqlClient.SqlClient> = Layer.effect(
  Transactor,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return Transactor.of({
      transaction: <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        sql.withTransaction(Effect.mapError(effect, (error) => new Rollback(error))).pipe(
          Effect.catch((failure): Effect.Effect<never, E> =>
            failure instanceof Rollback
              ? Effect.fail(failure.error as E)
              : Effect.die(isSqlError(failure) ? failure : new Error("transaction failed", { cause: failure }))
          )
        )
    })
  })
)
