/** Properties and property groups of every kind over HTTP: shapes, endpoints, validation, built-ins read-only. */
import { BUILTIN_GROUPS } from "@wasl/core/Records"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const RECORD_ID = /^[0-9a-f]{24}$/

describe.each(DATABASES)("properties and groups over HTTP on %s", (database) => {
  let server: TestServer
  let owner: { account_id: number; user_id: number; token: string }
  let other: { account_id: number; user_id: number; token: string }
  let reader: string

  beforeAll(async () => {
    server = await startTestServer(database)
    owner = await server.bootstrap({ email: "props-owner@example.test", password: "pw-owner" })
    other = await server.bootstrap({ email: "props-other@example.test", password: "pw-other" })
    const created = await server.request("POST", "/api/tokens", {
      token: owner.token,
      body: { name: "reader", abilities: ["deal-index"] }
    })
    reader = created.body.token
  })
  afterAll(async () => {
    await server?.close()
  })

  const tierBody = (groupId: string) => ({
    type: "single_select",
    name: { en: "Tier", ar: "الفئة" },
    desc: { en: "Customer tier" },
    internal_name: "tier",
    group_id: groupId,
    enum: [{ en: "Gold", ar: "ذهبي", internal_name: "gold" }, { en: "Silver", ar: "فضي", internal_name: "silver" }]
  })

  it("lists the built-ins of a kind with account_id null, their group and no user", async () => {
    const reply = await server.request("GET", "/api/deals/properties", { token: owner.token })
    expect(reply.status).toBe(200)
    const dealName = reply.body.data.find((p: { internal_name: string }) => p.internal_name === "deal_name")
    expect(dealName).toMatchObject({ type: "string", account_id: null, made_by: null, user: null })
    expect(dealName._id).toMatch(RECORD_ID)
    expect(dealName.group).toMatchObject({ internal_name: "deal_information", account_id: null })
    const stage = reply.body.data.find((p: { internal_name: string }) => p.internal_name === "deal_stage")
    expect(stage.type).toBe("single_select")
    expect(stage.enum.map((o: { internal_name: string }) => o.internal_name)).toContain("closed_lost")
  })

  it("creates a contact property (trailing slash) with user and group embedded", async () => {
    const reply = await server.request("POST", "/api/contacts/properties/", {
      token: owner.token,
      body: tierBody(BUILTIN_GROUPS.contact._id)
    })
    expect(reply.status).toBe(201)
    expect(reply.body.message).toBe("Entity was created Successfully")
    const property = reply.body.data
    expect(property).toMatchObject({
      type: "single_select",
      name: { en: "Tier", ar: "الفئة" },
      internal_name: "tier",
      group_id: BUILTIN_GROUPS.contact._id,
      account_id: owner.account_id,
      made_by: owner.user_id
    })
    expect(property._id).toMatch(RECORD_ID)
    expect(property.created_at).toMatch(WIRE_TIME)
    expect(property.enum).toHaveLength(2)
    expect(property.user).toMatchObject({ id: owner.user_id, email: "props-owner@example.test" })
    expect(typeof property.user.fullname).toBe("string")
    expect(property.group).toMatchObject({ internal_name: "contact_information" })
    expect(property.account).toBeUndefined()

    const shown = await server.request("GET", `/api/contacts/properties/${property._id}`, { token: owner.token })
    expect(shown.status).toBe(200)
    expect(shown.body.data._id).toBe(property._id)
  })

  it("embeds the account in ticket property responses", async () => {
    const reply = await server.request("POST", "/api/tickets/properties/", {
      token: owner.token,
      body: { type: "number", name: { en: "Severity" }, internal_name: "severity", group_id: BUILTIN_GROUPS.ticket._id }
    })
    expect(reply.status).toBe(201)
    expect(reply.body.data.account).toMatchObject({ id: owner.account_id })
    expect(reply.body.data.desc).toEqual([])
  })

  it("updates a deal property; internal_name cannot change; built-ins are read-only", async () => {
    const created = await server.request("POST", "/api/deals/properties", {
      token: owner.token,
      body: { type: "string", name: { en: "Source" }, internal_name: "lead_source", group_id: BUILTIN_GROUPS.deal._id }
    })
    const id = created.body.data._id
    const updated = await server.request("PUT", `/api/deals/properties/${id}`, {
      token: owner.token,
      body: { type: "string", name: { en: "Lead source", ar: "المصدر" }, group_id: BUILTIN_GROUPS.deal._id }
    })
    expect(updated.status).toBe(200)
    expect(updated.body.message).toBe("Entity was modified Successfully")
    expect(updated.body.data).toMatchObject({ internal_name: "lead_source", name: { en: "Lead source", ar: "المصدر" } })

    const renamed = await server.request("PUT", `/api/deals/properties/${id}`, {
      token: owner.token,
      body: { type: "string", name: { en: "x" }, group_id: BUILTIN_GROUPS.deal._id, internal_name: "other_name" }
    })
    expect(renamed.status).toBe(422)
    expect(Object.keys(renamed.body.errors)).toEqual(["internal_name"])

    const builtins = await server.request("GET", "/api/deals/properties", { token: owner.token })
    const amount = builtins.body.data.find((p: { internal_name: string }) => p.internal_name === "amount")
    const put = await server.request("PUT", `/api/deals/properties/${amount._id}`, {
      token: owner.token,
      body: { type: "number", name: { en: "x" }, group_id: BUILTIN_GROUPS.deal._id }
    })
    expect(put.status).toBe(403)
    expect((await server.request("DELETE", `/api/deals/properties/${amount._id}`, { token: owner.token })).status)
      .toBe(403)

    const deleted = await server.request("DELETE", `/api/deals/properties/${id}`, { token: owner.token })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ message: "Entity was deleted Successfully", data: [] })
    expect((await server.request("GET", `/api/deals/properties/${id}`, { token: owner.token })).status).toBe(404)
  })

  it("a select has at most 1,000 options: more is a 422 on enum alone, on create and update", async () => {
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ en: `Option ${i}`, internal_name: `option_${i}` }))
    const tooMany = "The enum field must not have more than 1000 items."
    const body = { type: "multi_select", name: { en: "Many" }, internal_name: "many_options", group_id: BUILTIN_GROUPS.deal._id }
    for (const n of [20_000, 1_001]) {
      const reply = await server.request("POST", "/api/deals/properties", { token: owner.token, body: { ...body, enum: options(n) } })
      expect(reply.status, String(n)).toBe(422)
      expect(reply.body).toEqual({ message: tooMany, errors: { enum: [tooMany] } })
    }
    const created = await server.request("POST", "/api/deals/properties", { token: owner.token, body: { ...body, enum: options(1_000) } })
    expect(created.status).toBe(201)
    expect(created.body.data.enum).toHaveLength(1_000)
    const { internal_name: _name, ...update } = body
    const updated = await server.request("PUT", `/api/deals/properties/${created.body.data._id}`, {
      token: owner.token,
      body: { ...update, enum: options(1_001) }
    })
    expect(updated.status).toBe(422)
    expect(updated.body).toEqual({ message: tooMany, errors: { enum: [tooMany] } })
  })

  it("validates bodies with Laravel messages and dot keys", async () => {
    const empty = await server.request("POST", "/api/deals/properties", { token: owner.token, body: {} })
    expect(empty.status).toBe(422)
    expect(Object.keys(empty.body.errors)).toEqual(expect.arrayContaining(["type", "name", "internal_name", "group_id"]))
    expect(empty.body.message).toBe(Object.values(empty.body.errors as Record<string, Array<string>>)[0]![0])

    const noOptions = await server.request("POST", "/api/deals/properties", {
      token: owner.token,
      body: { ...tierBody(BUILTIN_GROUPS.deal._id), enum: undefined }
    })
    expect(noOptions.status).toBe(422)
    expect(Object.keys(noOptions.body.errors)).toEqual(["enum"])

    const builtinName = await server.request("POST", "/api/deals/properties", {
      token: owner.token,
      body: { type: "string", name: { en: "x" }, internal_name: "amount", group_id: BUILTIN_GROUPS.deal._id }
    })
    expect(builtinName.status).toBe(422)
    expect(builtinName.body.errors.internal_name).toEqual(["The internal name has already been taken."])

    const otherKindsGroup = await server.request("POST", "/api/deals/properties", {
      token: owner.token,
      body: { type: "string", name: { en: "x" }, internal_name: "xx", group_id: BUILTIN_GROUPS.contact._id }
    })
    expect(otherKindsGroup.status).toBe(422)
    expect(Object.keys(otherKindsGroup.body.errors)).toEqual(["group_id"])
  })

  it("creates, renames and deletes groups; the internal_name stays; a group in use cannot go", async () => {
    const created = await server.request("POST", "/api/deals/properties/groups", {
      token: owner.token,
      body: { name: { en: "Sales Info", ar: "المبيعات" } }
    })
    expect(created.status).toBe(201)
    expect(created.body.message).toBe("Entity was created Successfully")
    const group = created.body.data
    expect(group).toMatchObject({ internal_name: "sales_info", desc: [], account_id: owner.account_id, made_by: owner.user_id })
    expect(group.user).toMatchObject({ id: owner.user_id })
    expect(group.account).toMatchObject({ id: owner.account_id })

    const again = await server.request("POST", "/api/deals/properties/groups", {
      token: owner.token,
      body: { name: { en: "Sales info" } }
    })
    expect(again.body.data.internal_name).toBe("sales_info_2")

    const renamed = await server.request("PUT", `/api/deals/properties/groups/${group._id}`, {
      token: owner.token,
      body: { name: { en: "Revenue" } }
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body.message).toBe("Entity was modified Successfully")
    expect(renamed.body.data).toMatchObject({ internal_name: "sales_info", name: { en: "Revenue" } })

    const listed = await server.request("GET", "/api/deals/properties/groups", { token: owner.token })
    expect(listed.body.data.map((g: { internal_name: string }) => g.internal_name))
      .toEqual(["deal_information", "sales_info", "sales_info_2"])

    await server.request("POST", "/api/deals/properties", {
      token: owner.token,
      body: { type: "boolean", name: { en: "Hot" }, internal_name: "hot", group_id: group._id }
    })
    const inUse = await server.request("DELETE", `/api/deals/properties/groups/${group._id}`, { token: owner.token })
    expect(inUse.status).toBe(422)
    const emptyGroup = again.body.data._id
    const gone = await server.request("DELETE", `/api/deals/properties/groups/${emptyGroup}`, { token: owner.token })
    expect(gone.status).toBe(200)
    expect(gone.body).toEqual({ message: "Entity was deleted Successfully", data: [] })

    const builtin = await server.request("PUT", `/api/deals/properties/groups/${BUILTIN_GROUPS.deal._id}`, {
      token: owner.token,
      body: { name: { en: "Mine" } }
    })
    expect(builtin.status).toBe(403)
  })

  it("gives concurrent creates of one name each its own suffix, never a 422 on internal_name", async () => {
    const replies = await Promise.all(Array.from({ length: 10 }, () =>
      server.request("POST", "/api/tickets/properties/groups", {
        token: owner.token,
        body: { name: { en: "Burst Group" } }
      })))
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201))
    const names = replies.map((r) => r.body.data.internal_name as string)
    expect(new Set(names).size).toBe(10)
    expect([...names].sort()).toEqual(
      ["burst_group", ...Array.from({ length: 9 }, (_, i) => `burst_group_${i + 2}`)].sort()
    )
  })

  it("needs property-manage to write and <kind>-index or property-manage to read", async () => {
    expect((await server.request("GET", "/api/deals/properties", { token: reader })).status).toBe(200)
    expect((await server.request("GET", "/api/contacts/properties", { token: reader })).status).toBe(403)
    const write = await server.request("POST", "/api/deals/properties/groups", {
      token: reader,
      body: { name: { en: "Nope" } }
    })
    expect(write.status).toBe(403)
  })

  it("hides another account's definitions (404) and unknown kinds or ids (404)", async () => {
    const mine = await server.request("POST", "/api/products/properties/groups", {
      token: owner.token,
      body: { name: { en: "Specs" } }
    })
    const id = mine.body.data._id
    expect((await server.request("GET", `/api/products/properties/groups/${id}`, { token: other.token })).status)
      .toBe(404)
    expect((await server.request("DELETE", `/api/products/properties/groups/${id}`, { token: other.token })).status)
      .toBe(404)
    expect((await server.request("GET", `/api/companies/properties/groups/${id}`, { token: owner.token })).status)
      .toBe(404)
    expect((await server.request("GET", "/api/widgets/properties", { token: owner.token })).status).toBe(404)
    expect((await server.request("GET", "/api/deals/properties/not-an-id", { token: owner.token })).status).toBe(404)
  })
})
