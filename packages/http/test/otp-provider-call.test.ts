/**
 * send-otp holds no database transaction while the provider answers (core messaging/otp-reservation.ts),
 * on PGlite (one connection) and PostgreSQL, against a local fake Cloud API that holds its answer:
 *
 * - while a send waits for the provider, requests on the same account's data (a read, another send
 *   of the account, crediting the account's row) and another account's send all complete; on
 *   PostgreSQL no connection sits idle in a transaction. Meanwhile the credit is reserved and the
 *   verification does not exist yet; once the provider answers, it is stored and the reservation
 *   settled (a managed code is stored once sent; each accepted send costs one credit);
 * - a held send the provider then rejects gives its credit and its cooldown back (a rejected send
 *   is not charged);
 * - a send whose process stops during the provider call keeps its credit reserved until the
 *   sweeper, after OTP_RESERVATION_SAFE_AFTER (driven by TestClock), refunds it — once;
 * - with a cooldown shorter than a provider call, an older send whose answer comes back after a
 *   newer one's does not supersede the newer code (one live code per recipient and template).
 */
import { type FakeCloudApi, startFakeCloudApi } from "@wasl/adapters/testing"
import { addOtpCredits } from "@wasl/core/Accounts"
import { type Principal } from "@wasl/core/Auth"
import { sendOtp, sweepOtpReservations } from "@wasl/core/Otp"
import { Duration, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approvedOnCloud, authenticationTemplate, createBroadcast, createPlatform } from "./support/messaging-fixtures.ts"
import { DATABASES, startTestServer, type TestServer } from "./support/server.ts"

const ACCESS_TOKEN = "EAAG-cloud-token-for-held-tests"

type Owner = { account_id: number; user_id: number; token: string }

const cloudPlatform = {
  name: "Cloud number",
  display_phone_number: "+1 555 000 2222",
  provider: "whatsapp_cloud",
  phone_id: "106540352242923",
  waba_id: "102290129340399",
  access_token: ACCESS_TOKEN
}

/** An approved authentication broadcast on a new whatsapp_cloud number of the token's account. */
const cloudOtpBroadcast = async (server: TestServer, api: FakeCloudApi, token: string, platform = cloudPlatform) =>
  approvedOnCloud(server, api, token, await createBroadcast(server, token, (await createPlatform(server, token, platform)).id, authenticationTemplate(), "en_US"))

/** A promise the test settles: the fake Cloud API's answer waits for it. */
const gate = () => {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `promise`, or a failure naming what was blocked when it takes longer than `ms`. */
const within = <A>(promise: Promise<A>, what: string, ms = 5_000): Promise<A> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`blocked behind the provider call: ${what}`)), ms))
  ])

describe.each(DATABASES)("send-otp and the provider call on %s", (database) => {
  let api: FakeCloudApi
  let server: TestServer
  let owner: Owner
  let other: Owner
  let authId: number
  let otherAuthId: number

  beforeAll(async () => {
    api = await startFakeCloudApi(ACCESS_TOKEN)
    server = await startTestServer(database, { graphUrl: api.url })
    owner = await server.bootstrap({ email: "held-owner@example.test", password: "pw" })
    other = await server.bootstrap({ email: "held-other@example.test", password: "pw" })
    await server.run(addOtpCredits(owner.account_id, 10))
    await server.run(addOtpCredits(other.account_id, 10))
    authId = (await cloudOtpBroadcast(server, api, owner.token)).id
    // Another business: its own WhatsApp Business Account.
    otherAuthId = (await cloudOtpBroadcast(server, api, other.token, { ...cloudPlatform, waba_id: "102290129340400" })).id
  })
  afterAll(async () => {
    await server?.close()
    await api?.close()
  })

  const send = (who: Owner, broadcastId: number, body: Record<string, unknown>) =>
    server.request("POST", `/api/broadcasts/${broadcastId}/send-otp`, { token: who.token, body })
  const credits = async (who: Owner) =>
    Number((await server.query("SELECT otp_credits FROM accounts WHERE id = $1", [who.account_id]))[0].otp_credits)
  const reservations = (who: Owner) =>
    server.query("SELECT recipient, status FROM otp_reservations WHERE account_id = $1 ORDER BY created_at, id", [who.account_id])
  const verificationsTo = async (who: Owner, to: string) =>
    (await server.query("SELECT count(*)::int AS n FROM otp_verifications WHERE account_id = $1 AND recipient = $2", [
      who.account_id,
      to
    ]))[0].n
  /** Waits until the fake Cloud API has the request for `digits` (so the first transaction has committed). */
  const providerCalled = (digits: string) =>
    within((async () => {
      while (!api.calls.some((call) => call.json?.to === digits)) await sleep(10)
    })(), `the provider call to ${digits}`)

  it("serves the account's other requests while a send waits for the provider, then stores the send", async () => {
    const held = gate()
    api.holds.set("966500000020", held.promise)
    const before = await credits(owner)
    const pending = send(owner, authId, { to: "+966500000020" })
    await providerCalled("966500000020")

    // The credit is reserved; nothing of the send is readable yet.
    expect(await credits(owner)).toBe(before - 1)
    expect(await reservations(owner)).toEqual([{ recipient: "966500000020", status: "open" }])
    expect(await verificationsTo(owner, "+966500000020")).toBe(0)

    // Requests that need a connection, and the account's row, complete meanwhile.
    const contacts = await within(server.request("GET", "/api/contacts", { token: owner.token }), "a read of the account")
    expect(contacts.status).toBe(200)
    const sameAccount = await within(send(owner, authId, { to: "+966500000021", code: "Other1" }), "the account's next send")
    expect(sameAccount.status).toBe(200)
    const otherAccount = await within(send(other, otherAuthId, { to: "+966500000022" }), "another account's send")
    expect(otherAccount.status).toBe(200)
    await within(server.run(addOtpCredits(owner.account_id, 1)), "crediting the account (an UPDATE of its row)")
    if (database === "postgres") {
      const [idle] = await server.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'"
      )
      expect(idle.n).toBe(0)
    }

    held.open()
    const reply = await pending
    expect(reply.status).toBe(200)
    const shown = await server.request("GET", `/api/verifications/${reply.body.verification_id}`, { token: owner.token })
    expect(shown.body.data).toMatchObject({ status: "live", to: "+966500000020", contact_id: reply.body.data.contact_id })
    expect(await reservations(owner)).toEqual([
      { recipient: "966500000020", status: "settled" },
      { recipient: "966500000021", status: "settled" }
    ])
    expect(await credits(owner)).toBe(before - 2 + 1)
    api.holds.delete("966500000020")
  })

  it("gives the credit and the cooldown back when the held send is then rejected", async () => {
    const held = gate()
    api.holds.set("966500000023", held.promise)
    api.failures.set("966500000023", [400, 131026])
    const before = await credits(owner)
    const contactsBefore = (await server.request("GET", "/api/contacts", { token: owner.token })).body.meta.total
    const pending = send(owner, authId, { to: "+966500000023" })
    await providerCalled("966500000023")
    expect(await credits(owner)).toBe(before - 1)

    held.open()
    const reply = await pending
    expect(reply.status).toBe(422)
    expect(Object.keys(reply.body.errors)).toEqual(["to"])
    expect(await credits(owner)).toBe(before)
    expect((await reservations(owner)).at(-1)).toEqual({ recipient: "966500000023", status: "released" })
    expect(await verificationsTo(owner, "+966500000023")).toBe(0)
    expect((await server.request("GET", "/api/contacts", { token: owner.token })).body.meta.total).toBe(contactsBefore)
    // No cooldown stayed either: the next send to the number goes through.
    api.holds.delete("966500000023")
    api.failures.delete("966500000023")
    expect((await send(owner, authId, { to: "+966500000023" })).status).toBe(200)
  })

  it("refunds a send whose process stopped during the provider call, after the safe time, once", async () => {
    const held = gate()
    api.holds.set("966500000024", held.promise)
    const before = await credits(owner)
    const principal: Principal = {
      kind: "token",
      accountId: owner.account_id,
      userId: owner.user_id,
      permissions: new Set(["broadcast-send-otp"]),
      abilities: ["*"],
      tokenId: 1,
      sessionId: null
    }
    // The use-case on the server's services; interrupting it while the provider holds its answer
    // stands in for the process stopping between the two transactions.
    const fiber = await server.run(Effect.forkDetach(sendOtp(principal, authId, { to: "+966500000024" })))
    await providerCalled("966500000024")
    await server.run(Fiber.interrupt(fiber))
    expect(await credits(owner)).toBe(before - 1)
    expect((await reservations(owner)).at(-1)).toEqual({ recipient: "966500000024", status: "open" })

    const sweepAt = (ms: number) =>
      server.run(
        Effect.andThen(TestClock.setTime(ms), sweepOtpReservations(100)).pipe(Effect.provide(TestClock.layer()))
      )
    // Before the safe time (a send may still be running): left alone.
    expect(await sweepAt(Date.now() + Duration.toMillis(Duration.seconds(90)))).toBe(0)
    expect(await credits(owner)).toBe(before - 1)
    // After it: refunded, and only once.
    expect(await sweepAt(Date.now() + Duration.toMillis(Duration.minutes(2)) + 1_000)).toBe(1)
    expect(await sweepAt(Date.now() + Duration.toMillis(Duration.minutes(3)))).toBe(0)
    expect(await credits(owner)).toBe(before)
    expect((await reservations(owner)).at(-1)).toEqual({ recipient: "966500000024", status: "released" })
    expect(await verificationsTo(owner, "+966500000024")).toBe(0)
    held.open()
    api.holds.delete("966500000024")
  })
})

describe.each(DATABASES)("send-otp outcomes stored out of order on %s (1-second cooldown)", (database) => {
  let api: FakeCloudApi
  let server: TestServer
  let owner: Owner
  let authId: number

  beforeAll(async () => {
    api = await startFakeCloudApi(ACCESS_TOKEN)
    server = await startTestServer(database, { graphUrl: api.url, otpCooldown: "1 second" })
    owner = await server.bootstrap({ email: "held-order@example.test", password: "pw" })
    await server.run(addOtpCredits(owner.account_id, 2))
    authId = (await cloudOtpBroadcast(server, api, owner.token)).id
  })
  afterAll(async () => {
    await server?.close()
    await api?.close()
  })

  it("keeps the newer send's code live when an older send's answer comes back after it (one live code)", async () => {
    const send = () => server.request("POST", `/api/broadcasts/${authId}/send-otp`, { token: owner.token, body: { to: "+966500000030" } })
    const held = gate()
    api.holds.set("966500000030", held.promise)
    const older = send()
    await within((async () => {
      while (!api.calls.some((call) => call.json?.to === "966500000030")) await sleep(10)
    })(), "the first provider call")
    api.holds.delete("966500000030") // only the first call waits
    await sleep(1_100) // the cooldown passes while the first send is still with the provider
    const newer = await send()
    expect(newer.status).toBe(200)
    held.open()
    const first = await older
    expect(first.status).toBe(200)
    const status = async (id: string) =>
      (await server.request("GET", `/api/verifications/${id}`, { token: owner.token })).body.data.status
    expect(await status(newer.body.verification_id)).toBe("live")
    expect(await status(first.body.verification_id)).toBe("failed")
    const [live] = await server.query(
      "SELECT count(*)::int AS n FROM otp_verifications WHERE account_id = $1 AND recipient = $2 AND status = 'live'",
      [owner.account_id, "+966500000030"]
    )
    expect(live.n).toBe(1)
  })
})
