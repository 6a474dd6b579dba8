/**
 * The permission matrix, generated from the OpenAPI document: for every operation whose
 * `x-wasl-permission` names what it needs (and every kind of its path), a member holding only
 * that is allowed (any answer but 403: a 404 for an id that names nothing, or a 422, is past the
 * permission check), and a member holding every other permission is refused with 403 and the
 * permission refusal's body. Operations that need no permission are listed here by name, so a new
 * operation is either given its permission or listed on purpose.
 *
 * One account; each member holds one team with the permissions of its case and a `*` token, made
 * once through the repositories. Requests carry the smallest body the operation's schema accepts,
 * so they reach the permission check rather than stopping at validation.
 */
import { Effect } from "effect"
import { OpenApi } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createTokenForMember, TeamRepository, UserRepository } from "@wasl/core/Accounts"
import { type Permission, PERMISSIONS } from "@wasl/core/Auth"
import { KIND_OF_PATH, type ObjectPath } from "@wasl/core/Records"
import { WaslApi } from "@wasl/http/Endpoints"
import { OPERATION_PERMISSIONS, PERMISSION_EXTENSION, type PermissionRule } from "../src/permission-openapi.ts"
import type { Reply } from "./support/client.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

/** Secured operations that need no permission: the caller's own user, session, accounts and notifications. */
const NO_PERMISSION = [
  "me.show",
  "me.updateProfile",
  "me.changePassword",
  "me.beginTwoFactor",
  "me.disableTwoFactor",
  "me.confirmTwoFactor",
  "auth.logout",
  "accounts.listMine",
  "accounts.switch",
  "accounts.create",
  "accounts.preferences",
  "accounts.changeEmail",
  "accounts.sendVerification",
  "notifications.list",
  "notifications.stream",
  "notifications.read",
  "notifications.preferences"
]

/** The permission refusal's body. */
const REFUSED = { message: "This action is unauthorized." }

const document = OpenApi.fromApi(WaslApi) as any

interface Operation {
  readonly id: string
  readonly method: string
  readonly path: string
  readonly operation: any
}

const operations: ReadonlyArray<Operation> = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap((
  [path, item]
) =>
  Object.entries(item)
    .filter(([method, operation]) => method !== "parameters" && typeof operation === "object")
    .map(([method, operation]) => ({ id: operation.operationId as string, method: method.toUpperCase(), path, operation }))
)

const resolve = (schema: any): any => schema?.$ref === undefined ? schema : resolve(document.components.schemas[schema.$ref.split("/").pop()])

/** The smallest value a JSON Schema node of the document accepts: required fields only, shortest strings and lists. */
const smallest = (node: any): unknown => {
  const schema = resolve(node) ?? {}
  if (schema.enum !== undefined) return schema.enum[0]
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives !== undefined) return smallest(alternatives.find((a: any) => resolve(a).type !== "null") ?? alternatives[0])
  switch (schema.type) {
    case "object":
      return Object.fromEntries((schema.required ?? []).map((key: string) => [key, smallest(schema.properties?.[key])]))
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => smallest(schema.items))
    case "string":
      return schema.format === "email" ? "member@example.test" : "a".repeat(schema.minLength ?? 1)
    case "integer":
    case "number":
      return Math.max(schema.minimum ?? 1, 1)
    case "boolean":
      return false
    default:
      return {}
  }
}

/** A CSV upload of one column: the smallest form an import takes. */
const MULTIPART_BOUNDARY = "matrix"
const MULTIPART_FILE = [
  `--${MULTIPART_BOUNDARY}`,
  `Content-Disposition: form-data; name="file"; filename="rows.csv"`,
  "Content-Type: text/csv",
  "",
  "name",
  `--${MULTIPART_BOUNDARY}--`,
  ""
].join("\r\n")

/**
 * Bodies the schema alone does not make right for the check to be reached: a token is asked only
 * abilities its maker holds (`token-manage`, which every caller of the case holds or lacks).
 */
const BODIES: Readonly<Record<string, unknown>> = {
  "tokens.create": { name: "matrix", abilities: ["token-manage"] }
}

/**
 * A value for a path parameter that names nothing, so that past the permission check the answer is
 * a 404: an integer no row has for the ids of accounts' own resources (tokens, members,
 * invitations, teams, webhooks, sending numbers, broadcasts) and indexes, a well-formed record id
 * (24 hex digits) otherwise.
 */
const nowhere = (path: string, name: string): string =>
  name === "user_id" || name === "index" || /^\/api\/(tokens|account|platforms|broadcasts)\//.test(path) ? "999999" : "9".repeat(24)

/** One request of the matrix: an operation, for one kind when its path has one. */
interface Case {
  readonly name: string
  readonly method: string
  readonly url: string
  readonly rule: PermissionRule
  /** The kind `{kind}` stands for (singular), when the rule names one. */
  readonly kind: string | undefined
  readonly body: { readonly raw: string; readonly contentType: string } | undefined
}

const bodyOf = (op: Operation): Case["body"] => {
  const content = op.operation.requestBody?.content
  if (content === undefined) return undefined
  if (content["application/json"] === undefined) {
    return { raw: MULTIPART_FILE, contentType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` }
  }
  const body = op.id in BODIES ? BODIES[op.id] : smallest(content["application/json"].schema)
  return { raw: JSON.stringify(body), contentType: "application/json" }
}

/** The permissions a rule stands for, `{kind}` made `kind`. */
const named = (names: ReadonlyArray<string>, kind: string | undefined): ReadonlyArray<Permission> =>
  names.map((name) => name.replace("{kind}", kind ?? "{kind}") as Permission)

/** The permission sets that must be allowed, and those that must be refused, by a rule. */
const setsOf = (rule: PermissionRule, kind: string | undefined) => {
  const without = (gone: ReadonlyArray<Permission>) => PERMISSIONS.filter((p) => !gone.includes(p))
  if (typeof rule === "string") {
    const [permission] = named([rule], kind)
    return { allowed: [[permission!]], refused: [without([permission!])] }
  }
  if ("all" in rule) {
    const all = named(rule.all, kind)
    return { allowed: [all], refused: all.map((permission) => without([permission])) }
  }
  const any = named(rule.any, kind)
  return { allowed: any.map((permission) => [permission]), refused: [without(any)] }
}

const setKey = (permissions: ReadonlyArray<Permission>) => [...permissions].sort().join(",")

describe("the OpenAPI document's permissions", () => {
  it("names a permission on every secured operation but those listed as needing none, and on no open one", () => {
    const secured = (op: Operation) => (op.operation.security ?? []).length > 0
    const unnamed = operations.filter((op) => secured(op) && op.operation[PERMISSION_EXTENSION] === undefined).map((op) => op.id)
    expect(unnamed.sort()).toEqual([...NO_PERMISSION].sort())
    expect(operations.filter((op) => !secured(op) && op.operation[PERMISSION_EXTENSION] !== undefined)).toEqual([])
    expect(Object.keys(OPERATION_PERMISSIONS).filter((id) => !operations.some((op) => op.id === id))).toEqual([])
  })

  it("names only permissions that exist, and a kind's only on operations that have one", () => {
    for (const op of operations) {
      const rule: PermissionRule | undefined = op.operation[PERMISSION_EXTENSION]
      if (rule === undefined) continue
      const names = typeof rule === "string" ? [rule] : "all" in rule ? rule.all : rule.any
      for (const name of names) {
        expect(PERMISSIONS, `${op.id}: ${name}`).toContain(name.replace("{kind}", "deal"))
        if (name.includes("{kind}")) expect(op.path.includes("{kind}") || op.id.startsWith("exports."), op.id).toBe(true)
      }
    }
  })

  it("says in words the permission the extension names, where the description names one", () => {
    const disagreeing = operations.flatMap((op) => {
      const rule: PermissionRule | undefined = op.operation[PERMISSION_EXTENSION]
      const said = [...(op.operation.description as string).matchAll(/\bPermissions? ([a-z]+(?:-[a-z]+)+)\b/g)].map((m) => m[1]!)
      if (said.length === 0) return []
      const names: ReadonlyArray<string> = rule === undefined ? [] : typeof rule === "string" ? [rule] : "all" in rule ? rule.all : rule.any
      return said.filter((name) => !names.includes(name)).map((name) => `${op.id}: ${name}`)
    })
    expect(disagreeing).toEqual([])
  })
})

describe.each(DATABASES)("the permission matrix on %s", (database) => {
  let server: TestServer
  let cases: ReadonlyArray<Case>
  /** A `*` token of a member holding exactly each permission set the matrix asks for, by setKey. */
  const tokens = new Map<string, string>()

  beforeAll(async () => {
    server = await startTestServer(database)
    const owner = await server.bootstrap({ email: "matrix-owner@example.test", password: "owner-password" })
    // `/api/exports/{id}` needs the index permission of the export's kind: a deal export.
    const exported = await server.request("POST", "/api/deals/exports", { token: owner.token, body: {} })
    expect(exported.status).toBe(202)
    const exportCase = { kind: "deal", id: exported.body.data._id as string }

    cases = operations.flatMap((op): Array<Case> => {
      const rule: PermissionRule | undefined = op.operation[PERMISSION_EXTENSION]
      if (rule === undefined) return []
      const kindParameter = (op.operation.parameters ?? []).find((p: any) => p.in === "path" && p.name === "kind")
      const paths: ReadonlyArray<ObjectPath | undefined> = kindParameter === undefined ? [undefined] : resolve(kindParameter.schema).enum
      return paths.map((path) => {
        const kind = path !== undefined ? KIND_OF_PATH[path] : op.id.startsWith("exports.") ? exportCase.kind : undefined
        const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === "kind" ? path! : op.id.startsWith("exports.") && name === "id" ? exportCase.id : nowhere(op.path, name))
        return { name: `${op.method} ${url}`, method: op.method, url, rule, kind, body: bodyOf(op) }
      })
    })

    const sets = new Map<string, ReadonlyArray<Permission>>()
    for (const c of cases) {
      const { allowed, refused } = setsOf(c.rule, c.kind)
      for (const set of [...allowed, ...refused]) sets.set(setKey(set), set)
    }
    let n = 0
    await server.run(Effect.forEach([...sets], ([key, permissions]) =>
      Effect.gen(function*() {
        n += 1
        const users = yield* UserRepository
        const user = yield* users.create({ email: `member-${n}@example.test`, passwordHash: "unused", firstname: "M", lastname: String(n) })
        yield* users.addMembership(owner.account_id, user.id)
        yield* (yield* TeamRepository).create(
          { accountId: owner.account_id, name: `team ${n}`, description: null, madeBy: null, permissions },
          [user.id]
        )
        const token = yield* createTokenForMember({ accountId: owner.account_id, userId: user.id, abilities: ["*"] })
        tokens.set(key, token.plainText)
      }), { concurrency: 8, discard: true }))
  })
  afterAll(async () => {
    await server?.close()
  })

  const send = (c: Case, permissions: ReadonlyArray<Permission>): Promise<Reply> =>
    server.request(c.method, c.url, {
      token: tokens.get(setKey(permissions))!,
      ...(c.body === undefined ? {} : { raw: c.body.raw, headers: { "content-type": c.body.contentType } })
    })

  it("allows a member holding only what an operation names, and refuses one holding everything else (403)", async () => {
    expect(cases.length).toBeGreaterThan(100)
    const wrong: Array<string> = []
    const check = async (c: Case) => {
      const { allowed, refused } = setsOf(c.rule, c.kind)
      for (const set of allowed) {
        const reply = await send(c, set)
        if (reply.status === 401 || reply.status === 403 || reply.status >= 500) wrong.push(`${c.name} with only ${set.join(" + ")}: ${reply.status} ${reply.text}`)
      }
      for (const set of refused) {
        const reply = await send(c, set)
        if (reply.status !== 403 || JSON.stringify(reply.body) !== JSON.stringify(REFUSED)) {
          const lacking = PERMISSIONS.filter((p) => !set.includes(p)).join(" + ")
          wrong.push(`${c.name} without ${lacking}: ${reply.status} ${reply.text}`)
        }
      }
    }
    // A few at a time: the cases are independent, and the server takes them in parallel.
    await Effect.runPromise(Effect.forEach(cases, (c) => Effect.promise(() => check(c)), { concurrency: 6, discard: true }))
    expect(wrong).toEqual([])
  }, 120_000)
})
