/**
 * `compileApiSchemas` puts Effect's Schema JIT compiler on the API's schemas; it must change no
 * answer. Samples of `GET /api/me`'s answer and of two payloads, valid and broken, are decoded
 * and encoded by Schema's interpreter first (nothing enabled yet in this file's module graph),
 * then again once the API's schemas are enabled: the same values, and the same issue messages.
 * That the second run went through generated code is seen from `new Function` being called.
 */
import { CurrentUser } from "@wasl/core/Accounts"
import { Arbitrary, Cause, Effect, Exit, Schema } from "effect"
import { HttpApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { WaslApi } from "../src/api.ts"
import { compileApiSchemas } from "../src/schema-jit.ts"
import { functionCalls } from "../../../test/support/function-calls.ts"

/** The request payload schemas of an endpoint, as HttpApi holds them (its JSON codecs). */
const payloadsOf = (group: string, name: string): ReadonlyArray<Schema.Codec<unknown, unknown>> => {
  const found: Array<Schema.Codec<unknown, unknown>> = []
  HttpApi.reflect(WaslApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group: g }) => {
      if (g.identifier !== group || endpoint.name !== name) return
      endpoint.payload.forEach(({ schemas }) => schemas.forEach((s) => found.push(s as Schema.Codec<unknown, unknown>)))
    }
  })
  return found
}

const JUNK: ReadonlyArray<unknown> = [null, 42, 1.5, "x", "", {}, [], true, undefined]

/** `value` with one property (at a path drawn from `n`) replaced by junk: mostly invalid. */
const broken = (value: unknown, n: number): unknown => {
  if (value === null || typeof value !== "object") return JUNK[n % JUNK.length]
  const copy: Record<string, unknown> | Array<unknown> = Array.isArray(value) ? [...value] : { ...value }
  const keys = Object.keys(copy)
  if (keys.length === 0) return JUNK[n % JUNK.length]
  const key = keys[n % keys.length]!
  const next = Math.floor(n / keys.length)
  ;(copy as Record<string, unknown>)[key] = next % 3 === 0
    ? JUNK[next % JUNK.length]
    : broken((copy as Record<string, unknown>)[key], next)
  return copy
}

/** A run's outcome, comparable: the value, or the failure's message. */
const outcome = (exit: Exit.Exit<unknown, unknown>): unknown =>
  Exit.isSuccess(exit) ? { value: exit.value } : { failure: String(Cause.squash(exit.cause)) }

/** HttpApi's options for payloads (which the generated object decoders leave to the interpreter), and the defaults. */
const OPTIONS = [{ errors: "all", onExcessProperty: "ignore" }, {}] as const

interface Case {
  readonly name: string
  readonly run: () => ReadonlyArray<unknown>
}

const sample = <A>(schema: Schema.Codec<A, unknown>, count: number): ReadonlyArray<A> =>
  Effect.runSync(Arbitrary.sampleEffect(Arbitrary.schema(schema), { count, seed: 20261127 }))

const cases = (): ReadonlyArray<Case> => {
  const users = sample(CurrentUser, 60)
  const encodedUsers = users.map((u) => Schema.encodeSync(CurrentUser)(u))
  const payloads = [...payloadsOf("auth", "login"), ...payloadsOf("tokens", "create")]
  return [
    {
      name: "GET /api/me's answer, encoded",
      run: () => users.map((u) => outcome(Schema.encodeUnknownExit(CurrentUser)(u)))
    },
    {
      name: "GET /api/me's answer with a broken field, encoded",
      run: () => users.map((u, i) => outcome(Schema.encodeUnknownExit(CurrentUser)(broken(u, i * 7 + 3))))
    },
    {
      name: "GET /api/me's answer, decoded",
      run: () => OPTIONS.flatMap((o) => encodedUsers.map((u) => outcome(Schema.decodeUnknownExit(CurrentUser)(u, o))))
    },
    {
      name: "GET /api/me's answer with a broken field, decoded",
      run: () =>
        OPTIONS.flatMap((o) =>
          encodedUsers.map((u, i) => outcome(Schema.decodeUnknownExit(CurrentUser)(broken(u, i * 11 + 1), o)))
        )
    },
    ...payloads.map((schema, p): Case => {
      const values = sample(schema, 40).map((v) => Schema.encodeSync(schema)(v))
      return {
        name: `payload ${p}, valid and broken, decoded`,
        run: () =>
          OPTIONS.flatMap((o) =>
            values.flatMap((v, i) => [
              outcome(Schema.decodeUnknownExit(schema)(v, o)),
              outcome(Schema.decodeUnknownExit(schema)(broken(v, i * 5 + 2), o))
            ])
          )
      }
    })
  ]
}

describe("compileApiSchemas", () => {
  it("changes no value and no issue of the API's schemas, and compiles them", () => {
    const all = cases()
    const interpreted = functionCalls(() => all.map((c) => c.run()))
    expect(interpreted.calls).toBe(0)

    compileApiSchemas(WaslApi)
    const compiled = functionCalls(() => all.map((c) => c.run()))
    expect(compiled.calls).toBeGreaterThan(0)

    all.forEach((c, i) => expect(compiled.result[i], c.name).toStrictEqual(interpreted.result[i]))
    // The samples hold successes and failures alike.
    const flat = interpreted.result.flat() as ReadonlyArray<Record<string, unknown>>
    expect(flat.filter((o) => "value" in o).length).toBeGreaterThan(50)
    expect(flat.filter((o) => "failure" in o).length).toBeGreaterThan(50)
  })
})
