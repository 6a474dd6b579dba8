/**
 * A whatsapp_cloud sending number end to end (its access token is write-only; a managed code is
 * never returned; a send the provider rejects is not charged): the server opens the sealed token
 * and calls the Cloud API
 * (`WASL_WHATSAPP_GRAPH_URL`, here a local fake that checks the documented request) with it as
 * the bearer; Cloud API rejections are 422 and throttling a 503 with Retry-After, neither charged.
 */
import { type FakeCloudApi, startFakeCloudApi } from "@wasl/adapters/testing"
import { addOtpCredits } from "@wasl/core/Accounts"
import { createHmac } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approvedOnCloud, authenticationTemplate, createBroadcast, createPlatform, utilityTemplate } from "./support/messaging-fixtures.ts"
import { TEST_OTP_KEY } from "./support/messaging-services.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const ACCESS_TOKEN = "EAAG-cloud-token-for-tests"

describe.each(DATABASES)("whatsapp_cloud sending number on %s", (database) => {
  let api: FakeCloudApi
  let server: TestServer
  let owner: { account_id: number; token: string }
  let authId: number
  let platformId: number

  beforeAll(async () => {
    api = await startFakeCloudApi(ACCESS_TOKEN)
    server = await startTestServer(database, { graphUrl: api.url })
    owner = await server.bootstrap({ email: "cloud@example.test", password: "pw" })
    await server.run(addOtpCredits(owner.account_id, 10))
    platformId = (await createPlatform(server, owner.token, {
      name: "Cloud number",
      display_phone_number: "+1 555 000 1111",
      provider: "whatsapp_cloud",
      phone_id: "106540352242922",
      waba_id: "102290129340398",
      access_token: ACCESS_TOKEN
    })).id
    authId = (await approved(await createBroadcast(server, owner.token, platformId, authenticationTemplate(), "en_US"))).id
  })
  afterAll(async () => {
    await server?.close()
    await api?.close()
  })

  const approved = <B extends { id: number; template: { external_id: string | null } }>(broadcast: B) =>
    approvedOnCloud(server, api, owner.token, broadcast)

  const credits = async () =>
    Number((await server.query("SELECT otp_credits FROM accounts WHERE id = $1", [owner.account_id]))[0].otp_credits)

  it("sends a managed code through the Cloud API with the platform's bearer token", async () => {
    const reply = await server.request("POST", `/api/broadcasts/${authId}/send-otp`, {
      token: owner.token,
      body: { to: "+966500000010" }
    })
    expect(reply.status).toBe(200)
    const call = api.calls.at(-1)!
    expect(call.path).toBe("/v21.0/106540352242922/messages")
    expect(call.authorization).toBe(`Bearer ${ACCESS_TOKEN}`)
    expect(call.json).toMatchObject({ to: "966500000010", type: "template", template: { name: "login_code", language: { code: "en_US" } } })
    const code = call.json.template.components[0].parameters[0].text
    expect(code).toMatch(/^\d{6}$/)
    expect(reply.text).not.toContain(code)
    expect(reply.body.data.id).toMatch(/^wamid\.FAKE/)
    const [row] = await server.query("SELECT code_hash FROM otp_verifications WHERE account_id = $1 AND id = $2", [
      owner.account_id,
      reply.body.verification_id
    ])
    expect(row.code_hash).toBe(createHmac("sha256", TEST_OTP_KEY).update(reply.body.verification_id + code).digest("hex"))
    const verified = await server.request("POST", `/api/verifications/${reply.body.verification_id}/verify`, {
      token: owner.token,
      body: { code }
    })
    expect(verified.body.data.status).toBe("approved")
  })

  it("answers 422 on to for a Cloud API rejection (131026) and charges nothing", async () => {
    api.failures.set("966500000011", [400, 131026])
    const before = await credits()
    const reply = await server.request("POST", `/api/broadcasts/${authId}/send-otp`, {
      token: owner.token,
      body: { to: "+966500000011" }
    })
    expect(reply.status).toBe(422)
    expect(Object.keys(reply.body.errors)).toEqual(["to"])
    expect(await credits()).toBe(before)
  })

  it("answers 503 with Retry-After when the Cloud API throttles (130429), and charges nothing", async () => {
    api.failures.set("966500000012", [400, 130429])
    const before = await credits()
    const reply = await server.request("POST", `/api/broadcasts/${authId}/send-otp`, {
      token: owner.token,
      body: { to: "+966500000012", code: "Relay9" }
    })
    expect(reply.status).toBe(503)
    expect(reply.headers.get("retry-after")).toBe("60")
    expect(typeof reply.body.message).toBe("string")
    expect(reply.text).not.toContain("Relay9")
    expect(await credits()).toBe(before)
    // Nothing was kept, so the cooldown did not start either.
    api.failures.delete("966500000012")
    expect((await server.request("POST", `/api/broadcasts/${authId}/send-otp`, {
      token: owner.token,
      body: { to: "+966500000012", code: "Relay9" }
    })).status).toBe(200)
  })

  it("sends a media header template: upload, then the header by media id", async () => {
    const b = await approved(await createBroadcast(server, owner.token, platformId, utilityTemplate({
      name: "photo",
      header: { format: "IMAGE" },
      examples: { header_handle: "4::aW1hZ2UvcG5n:ARb-sample-handle" }
    })))
    const contact = await server.request("POST", "/api/contacts", { token: owner.token, body: { whatsapp_number: "+966500000013" } })
    const form = new FormData()
    form.set("contact_id", contact.body.data.properties._id)
    form.set("header[file]", new Blob([new Uint8Array(512)], { type: "image/png" }), "photo.png")
    const response = await fetch(`${server.url}/api/broadcasts/${b.id}/send`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}` },
      body: form
    })
    expect(response.status).toBe(200)
    const [upload, message] = api.calls.slice(-2)
    expect(upload!.form?.file).toEqual({ name: "photo.png", type: "image/png", size: 512 })
    expect(message!.json.template.components[0]).toEqual({
      type: "header",
      parameters: [{ type: "image", image: { id: expect.stringMatching(/^media-/) } }]
    })
  })
})
