/** Watching the SQL statements a test server runs. */
import { Tracer } from "effect"

/** A tracer that records the text of every SQL statement run. */
export const countingTracer = (statements: Array<string>): Tracer.Tracer =>
  Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options)
      const attribute = span.attribute.bind(span)
      span.attribute = (key, value) => {
        if (key === "db.query.text") statements.push(String(value))
        attribute(key, value)
      }
      return span
    }
  })

/**
 * The statements of a request that authentication does not make: the token by id and the
 * member's grants are kept by the process's caches, or not yet (before its LISTEN is confirmed),
 * which would make a count differ by chance.
 */
export const withoutAuthentication = (statements: ReadonlyArray<string>): Array<string> =>
  statements.filter((text) => !/FROM api_tokens WHERE id|FROM account_user au\b/.test(text))

/** `GET /api/me`'s one read of its parts (`CurrentUserReaderPg`), which the caches keep too. */
export const CURRENT_USER_READ = /FROM users WHERE id/

/** The statements of a request that neither authentication nor `GET /api/me`'s kept read make. */
export const withoutCachedReads = (statements: ReadonlyArray<string>): Array<string> =>
  withoutAuthentication(statements).filter((text) => !CURRENT_USER_READ.test(text))
