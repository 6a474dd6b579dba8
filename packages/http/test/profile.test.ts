/** `PUT /api/me` and `PUT /api/me/password` over HTTP, on each database. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Reply } from "./support/client.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const XHR = { "x-requested-with": "XMLHttpRequest" }
const sessionOf = (reply: Reply) =>
  reply.headers.getSetCookie().find((line) => line.startsWith("wasl_session="))!.split(";")[0]!

describe.each(DATABASES)("profile and password over HTTP on %s", (database) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(database)
  })
  afterAll(async () => {
    await server?.close()
  })

  const logIn = async (email: string, password: string) =>
    server.request("POST", "/api/auth/login", { body: { email, password } })

  it("changes the fields given and answers the user as GET /api/me shows it; refuses invalid ones with 422", async () => {
    const owner = await server.bootstrap({ email: "profile@example.test", password: "profile-password" })
    const reply = await server.request("PUT", "/api/me", {
      token: owner.token,
      body: { firstname: " Ada ", lastname: "Lovelace", locale: "fr-ca", image: "https://example.com/ada.png" }
    })
    expect(reply.status).toBe(200)
    expect(reply.body.message).toBe("Entity was modified Successfully")
    expect(reply.body.data).toMatchObject({
      id: owner.user_id,
      firstname: "Ada",
      lastname: "Lovelace",
      locale: "fr-CA",
      image: "https://example.com/ada.png"
    })
    const me = await server.request("GET", "/api/me", { token: owner.token })
    expect(me.body).toMatchObject({ firstname: "Ada", locale: "fr-CA", image: "https://example.com/ada.png" })
    expect(me.body.account.id).toBe(owner.account_id)

    const bad = await server.request("PUT", "/api/me", {
      token: owner.token,
      body: { firstname: "", locale: "??", image: "http://example.com/ada.png" }
    })
    expect(bad.status).toBe(422)
    expect(bad.body.errors).toEqual({
      firstname: ["The firstname field is required."],
      locale: ["The locale field must be a BCP 47 language tag."],
      image: ["The image field must start with one of the following: https://."]
    })
    const notText = await server.request("PUT", "/api/me", { token: owner.token, body: { firstname: 12 } })
    expect(notText.status).toBe(422)
    expect(Object.keys(notText.body.errors)).toEqual(["firstname"])
    const removed = await server.request("PUT", "/api/me", { token: owner.token, body: { image: null } })
    expect(removed.body.data.image).toBeNull()
    expect(removed.body.data.firstname).toBe("Ada")
  })

  it("changes the password given the current one; the other sessions end, this one stays", async () => {
    await server.bootstrap({ email: "password@example.test", password: "old-password" })
    const mine = sessionOf(await logIn("password@example.test", "old-password"))
    const other = sessionOf(await logIn("password@example.test", "old-password"))

    const wrong = await server.request("PUT", "/api/me/password", {
      cookie: mine,
      headers: XHR,
      body: { current_password: "nope", password: "new-password" }
    })
    expect(wrong.status).toBe(422)
    expect(wrong.body).toEqual({
      message: "The password is incorrect.",
      errors: { current_password: ["The password is incorrect."] }
    })
    expect((await server.request("GET", "/api/me", { cookie: other })).status).toBe(200)

    const changed = await server.request("PUT", "/api/me/password", {
      cookie: mine,
      headers: XHR,
      body: { current_password: "old-password", password: "new-password" }
    })
    expect(changed.status).toBe(204)
    expect((await server.request("GET", "/api/me", { cookie: mine })).status).toBe(200)
    expect((await server.request("GET", "/api/me", { cookie: other })).status).toBe(401)
    expect((await logIn("password@example.test", "old-password")).status).toBe(422)
    expect((await logIn("password@example.test", "new-password")).status).toBe(200)
  })
})
