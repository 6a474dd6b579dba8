import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { parseBearer, TOKEN_SECRET_LENGTH } from "../../src/Auth.ts"

/** The bearer token's form, written independently: `<positive integer id>|<40 alphanumerics>`. */
const isSpecForm = (s: string): boolean => {
  const parts = s.split("|")
  if (parts.length !== 2) return false
  const [id, secret] = parts as [string, string]
  return /^[1-9][0-9]*$/.test(id) && Number.isSafeInteger(Number(id)) && /^[A-Za-z0-9]{40}$/.test(secret)
}

const Id = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))
const Secret = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{40}$/))
const Position = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1000 }))
const NotAlphanumeric = Schema.Literals([" ", "_", "-", "+", "/", "=", "|", ".", "\n", "\t", "é", "ß", "٣", "０", "\u0000"])
const Mutation = Schema.Literals(["drop", "insert", "replace", "duplicate-pipe", "prefix", "suffix", "leading-zero"])

const mutate = (valid: string, kind: typeof Mutation.Type, at: number, bad: string): string => {
  const pipe = valid.indexOf("|")
  const inSecret = pipe + 1 + (at % TOKEN_SECRET_LENGTH)
  switch (kind) {
    case "drop":
      return valid.slice(0, inSecret) + valid.slice(inSecret + 1)
    case "insert":
      return valid.slice(0, at % (valid.length + 1)) + bad + valid.slice(at % (valid.length + 1))
    case "replace":
      return valid.slice(0, inSecret) + bad + valid.slice(inSecret + 1)
    case "duplicate-pipe":
      return valid.slice(0, pipe) + "||" + valid.slice(pipe + 1)
    case "prefix":
      return (at % 2 === 0 ? "Bearer " : bad) + valid
    case "suffix":
      return valid + bad
    case "leading-zero":
      return "0" + valid
  }
}

describe("parseBearer", () => {
  it.prop("a generated valid token parses back to its parts", [Id, Secret], ([id, secret]) => {
    assert.deepStrictEqual(parseBearer(`${id}|${secret}`), { id, secret })
  })

  it.prop("rejects every mutation of a valid token", [Id, Secret, Mutation, Position, NotAlphanumeric], ([id, secret, kind, at, bad]) => {
    const mutated = mutate(`${id}|${secret}`, kind, at, bad)
    assert.isFalse(isSpecForm(mutated), mutated)
    assert.isUndefined(parseBearer(mutated), JSON.stringify(mutated))
  })

  it.prop("random strings are rejected unless they are of the form", [Schema.String], ([s]) => {
    assert.strictEqual(parseBearer(s) !== undefined, isSpecForm(s), JSON.stringify(s))
  })

  const NearMiss = Schema.String.check(Schema.isPattern(/^-?[0-9]{0,15}\|{1,2}[A-Za-z0-9_+/= -]{38,42}$/))
  it.prop("near misses are accepted exactly when they are of the form", [NearMiss], ([s]) => {
    const parsed = parseBearer(s)
    assert.strictEqual(parsed !== undefined, isSpecForm(s), JSON.stringify(s))
    if (parsed !== undefined) assert.strictEqual(`${parsed.id}|${parsed.secret}`, s)
  }, { arbitrary: { runs: 500 } })

  it.each([
    "",
    "|",
    "1|",
    "|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "0|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "-1|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "1.5|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "1e3|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "1|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "1|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "Bearer 1|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "1|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
  ])("rejects %j", (s) => {
    assert.isUndefined(parseBearer(s))
  })

  it("accepts the largest safe id", () => {
    const secret = "A".repeat(40)
    assert.deepStrictEqual(parseBearer(`${Number.MAX_SAFE_INTEGER}|${secret}`), { id: Number.MAX_SAFE_INTEGER, secret })
  })

  // 16 digits pass the pattern, but above 2^53 - 1 `Number` rounds: the token
  // would be read as another id (9007199254740993 → ...992), so two different
  // bearer strings would name one token. Such an id is not one of ours.
  it.each(["9007199254740993", "9999999999999999"])("rejects the unsafe id %s", (id) => {
    assert.isUndefined(parseBearer(`${id}|${"A".repeat(40)}`))
  })
})
