/**
 * The `wasl` command line end to end, as separate processes: on a fresh embedded
 * data directory, and, when `TEST_DATABASE_URL` is set, on a fresh PostgreSQL database this file
 * creates and drops. Each success prints exactly one JSON line on stdout; each failure exits 1 with
 * one `wasl: <message>` line on stderr.
 *
 * On the embedded database held by a running `npm start`, the commands go through that process's
 * database port and say so on stderr; a holder that crashed is taken over as before.
 *
 * Black box: this file imports nothing from the workspace. The PostgreSQL database is created and
 * dropped by a small `@effect/sql-pg` script run with node (test/support/processes.ts; no
 * `psql`/`createdb` needed). Within a variant the tests share the database and run in order.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  cliMain,
  eventually,
  exitWithin,
  type Finished as Result,
  FIRST_RUN,
  freePort,
  killAll,
  launch,
  type Launched,
  LISTENING,
  requestJson,
  runToEnd,
  scratchDatabase,
  testPostgresUrl,
  waslMain
} from "./support/processes.ts"

const show = (result: Result) =>
  `exit ${result.code} ${result.signal ?? ""}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`

/** A success: exit 0 and exactly one line on stdout, a JSON object, returned. */
const expectJsonLine = (result: Result): Record<string, any> => {
  expect(result.code, show(result)).toBe(0)
  expect(result.stdout.endsWith("\n"), show(result)).toBe(true)
  const lines = result.stdout.slice(0, -1).split("\n")
  expect(lines, show(result)).toHaveLength(1)
  const value: unknown = JSON.parse(lines[0]!)
  expect(typeof value === "object" && value !== null && !Array.isArray(value), show(result)).toBe(true)
  return value as Record<string, any>
}

/** A failure: exit 1, nothing on stdout, one `wasl: <message>` line on stderr; the message returned. */
const expectFailure = (result: Result): string => {
  expect(result.code, show(result)).toBe(1)
  expect(result.stdout, show(result)).toBe("")
  const lines = result.stderr.split("\n").filter((line) => line.trim() !== "")
  expect(lines, show(result)).toHaveLength(1)
  expect(lines[0], show(result)).toMatch(/^wasl: \S.*$/)
  return lines[0]!.slice("wasl: ".length)
}

const TOKEN = /^\d+\|[A-Za-z0-9]{40}$/

// -----------------------------------------------------------------------------
// databases
// -----------------------------------------------------------------------------

interface Target {
  /** The CLI's environment. */
  readonly env: NodeJS.ProcessEnv
  readonly teardown: () => Promise<void>
}

/** A base environment without a database of its own and with a data directory under `dir`. */
const baseEnv = (dataDir: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, WASL_DATA_DIR: dataDir }
  delete env.DATABASE_URL
  return env
}

const embeddedTarget = async (): Promise<Target> => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-cli-"))
  return {
    env: baseEnv(dir),
    teardown: async () => Fs.rmSync(dir, { recursive: true, force: true })
  }
}

const postgresUrl = testPostgresUrl()

const postgresTarget = async (): Promise<Target> => {
  const database = await scratchDatabase(postgresUrl!)
  // A data directory that must stay untouched: with DATABASE_URL the embedded database is not used.
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-cli-pg-"))
  const dataDir = Path.join(dir, "unused")
  return {
    env: { ...baseEnv(dataDir), DATABASE_URL: database.url },
    teardown: async () => {
      try {
        expect(Fs.existsSync(dataDir), "the embedded data directory was created despite DATABASE_URL").toBe(false)
      } finally {
        Fs.rmSync(dir, { recursive: true, force: true })
        await database.drop()
      }
    }
  }
}

// -----------------------------------------------------------------------------
// tests
// -----------------------------------------------------------------------------

const variants = [
  { name: "the embedded database", enabled: true, target: embeddedTarget },
  { name: "PostgreSQL (TEST_DATABASE_URL)", enabled: postgresUrl !== undefined, target: postgresTarget }
] as const

for (const variant of variants) {
  describe.runIf(variant.enabled)(`wasl CLI on ${variant.name}`, () => {
    let target: Target | undefined
    const wasl = (...args: Array<string>) => runToEnd(`wasl ${args.join(" ")}`, cliMain, args, target!.env)

    let account: { readonly account_id: number; readonly user_id: number; readonly team_id: number; readonly token: string }

    beforeAll(async () => {
      target = await variant.target()
    }, 60_000)

    afterAll(async () => {
      await killAll()
      await target?.teardown()
    }, 60_000)

    it("migrate applies every migration once, then none", async () => {
      const first = expectJsonLine(await wasl("migrate"))
      expect(Object.keys(first)).toEqual(["migrated"])
      expect(first.migrated[0]).toBe("0001_init")
      for (const name of first.migrated) expect(name).toMatch(/^\d{4}_[a-z0-9_]+$/)
      expect([...first.migrated].sort()).toEqual(first.migrated)
      expect(expectJsonLine(await wasl("migrate"))).toEqual({ migrated: [] })
    }, 90_000)

    it("bootstrap creates an account, its owner, a team and an owner token", async () => {
      const created = expectJsonLine(
        await wasl("bootstrap", "--account", "A", "--email", "e@x.test", "--password", "pw", "--otp-credits", "2")
      )
      expect(Object.keys(created).sort()).toEqual(["account_id", "team_id", "token", "user_id"])
      for (const key of ["account_id", "user_id", "team_id"] as const) {
        expect(Number.isSafeInteger(created[key]) && created[key] > 0, `${key}: ${created[key]}`).toBe(true)
      }
      expect(created.token).toMatch(TOKEN)
      account = created as typeof account
    }, 30_000)

    it("credits add adds to the balance", async () => {
      expect(expectJsonLine(await wasl("credits", "add", "--account", String(account.account_id), "--amount", "5")))
        .toEqual({ account_id: account.account_id, otp_credits: 7 })
    }, 30_000)

    it("plan set changes the plan, the webhook limit and the monthly message allowance", async () => {
      expect(expectJsonLine(
        await wasl("plan", "set", "--account", String(account.account_id), "--plan", "custom", "--webhook-limit", "3")
      )).toEqual({ account_id: account.account_id, plan: "custom", webhook_limit: 3, message_limit: 0 })
      expect(expectJsonLine(
        await wasl("plan", "set", "--account", String(account.account_id), "--plan", "custom", "--messages", "2500")
      )).toEqual({ account_id: account.account_id, plan: "custom", webhook_limit: null, message_limit: 2500 })
      expect(expectJsonLine(
        await wasl("plan", "set", "--account", String(account.account_id), "--plan", "starter")
      )).toEqual({ account_id: account.account_id, plan: "starter", webhook_limit: null, message_limit: 1000 })
    }, 60_000)

    it("token create makes a token for a member", async () => {
      const created = expectJsonLine(
        await wasl(
          "token",
          "create",
          "--user",
          String(account.user_id),
          "--account",
          String(account.account_id),
          "--abilities",
          "deal-index,token-manage"
        )
      )
      expect(Object.keys(created).sort()).toEqual(["id", "token"])
      expect(Number.isSafeInteger(created.id) && created.id > 0).toBe(true)
      expect(created.token).toMatch(TOKEN)
      expect(created.token.startsWith(`${created.id}|`)).toBe(true)
      expect(created.token).not.toBe(account.token)
    }, 30_000)

    it("team create and grant; member invite (a mail with the link), list and remove, acting as a member", async () => {
      const as = ["--account", String(account.account_id), "--as", String(account.user_id)]
      const team = expectJsonLine(await wasl("team", "create", ...as, "--name", "Deals", "--permissions", "deal-index"))
      expect(team).toMatchObject({ name: "Deals", permissions: ["deal-index"], user_ids: [] })
      const granted = expectJsonLine(await wasl("team", "grant", ...as, "--team", String(team.id), "--permissions", "deal-show,deal-index"))
      expect(granted.permissions).toEqual(["deal-index", "deal-show"])

      const outbox = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-cli-mail-")), "mail.jsonl")
      const args = ["member", "invite", ...as, "--email", "agent@x.test", "--teams", String(team.id)]
      const invited = expectJsonLine(await runToEnd(`wasl ${args.join(" ")}`, cliMain, args, { ...target!.env, WASL_MAIL_OUTBOX: outbox }))
      expect(invited).toMatchObject({ email: "agent@x.test", team_ids: [team.id], status: "invited" })
      const mail = JSON.parse(Fs.readFileSync(outbox, "utf8").trim().split("\n").at(-1)!)
      expect(mail.to).toBe("agent@x.test")
      expect(mail.text).toMatch(/\/invitations\/[A-Za-z0-9]{40}/)

      const members = expectJsonLine(await wasl("member", "list", ...as))
      expect(members.data.map((m: any) => [m.user?.id ?? m.email, m.status])).toEqual([
        [account.user_id, "active"],
        ["agent@x.test", "invited"]
      ])
      expect(members.data[1].teams).toEqual([{ id: team.id, name: "Deals" }])
      expect(members.total).toBe(2)
      expect(expectFailure(await wasl("member", "remove", ...as, "--user", String(account.user_id)))).toMatch(/member-manage/)
    }, 240_000)

    it("credits add on an unknown account fails", async () => {
      const message = expectFailure(await wasl("credits", "add", "--account", "999999", "--amount", "5"))
      expect(message).toMatch(/not found|account/i)
    }, 30_000)

    it("credits add of 0 fails", async () => {
      const message = expectFailure(
        await wasl("credits", "add", "--account", String(account.account_id), "--amount", "0")
      )
      expect(message).toMatch(/amount/i)
    }, 30_000)

    it("bootstrap with an e-mail already taken fails", async () => {
      const message = expectFailure(
        await wasl("bootstrap", "--account", "B", "--email", "e@x.test", "--password", "pw2")
      )
      expect(message).toMatch(/e-?mail/i)
    }, 30_000)

    it("token create for a user who is not a member of the account fails", async () => {
      const other = expectJsonLine(
        await wasl("bootstrap", "--account", "C", "--email", "other@x.test", "--password", "pw3")
      )
      expect(other.account_id).not.toBe(account.account_id)
      const message = expectFailure(
        await wasl(
          "token",
          "create",
          "--user",
          String(other.user_id),
          "--account",
          String(account.account_id),
          "--abilities",
          "deal-index"
        )
      )
      expect(message).toMatch(/member|not found/i)
    }, 60_000)

    it("the failures changed nothing: the balance is still 7", async () => {
      expect(expectJsonLine(await wasl("credits", "add", "--account", String(account.account_id), "--amount", "1")))
        .toEqual({ account_id: account.account_id, otp_credits: 8 })
    }, 30_000)
  })
}

// -----------------------------------------------------------------------------
// the embedded database held by a running npm start
// -----------------------------------------------------------------------------

/** The stderr lines of a run. */
const stderrLines = (result: Result) => result.stderr.split("\n").filter((line) => line.trim() !== "")

describe("wasl CLI while npm start runs on the embedded database", () => {
  let dir = ""
  let env: NodeJS.ProcessEnv = {}
  let server: Launched
  let baseUrl = ""
  let token = ""
  let me: Record<string, any> = {}
  const wasl = (...args: Array<string>) => runToEnd(`wasl ${args.join(" ")}`, cliMain, args, env)
  const lockFile = () => Path.join(dir, "wasl.lock")
  const usingServer = () =>
    `Using the embedded database of the running Wasl (pid ${server.child.pid}) at 127.0.0.1:${
      JSON.parse(Fs.readFileSync(lockFile(), "utf8")).server.port
    }.`
  const getMe = async (bearer = token) => {
    const reply = await requestJson(baseUrl, "GET", "/api/me", { token: bearer })
    expect(reply.status, reply.text).toBe(200)
    return reply.body
  }

  beforeAll(async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-cli-running-"))
    const port = await freePort()
    env = { ...baseEnv(dir), HOST: "127.0.0.1", PORT: String(port) }
    server = launch("wasl (npm start)", waslMain, [], env)
    await server.waitForStdout(LISTENING, 90_000)
    const block = FIRST_RUN.exec(server.stdout())
    if (block === null) throw new Error(`no first-run block\n${server.output()}`)
    token = block[3]!
    baseUrl = `http://127.0.0.1:${port}`
    me = await getMe()
    expect(me.account.otp_credits).toBe(0)
  }, 120_000)

  afterAll(async () => {
    await killAll()
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  it("credits add goes through the server's database port; the server sees the new balance", async () => {
    expect((await getMe()).account.otp_credits).toBe(0)
    const result = await wasl("credits", "add", "--account", String(me.account.id), "--amount", "100")
    expect(expectJsonLine(result)).toEqual({ account_id: me.account.id, otp_credits: 100 })
    expect(stderrLines(result)).toEqual([usingServer()])
    // The read above left the parts in the server's cache: the notification of the change drops
    // them, well before their 10 s expiry.
    await eventually(async () => (await getMe()).account.otp_credits === 100, 3_000, "GET /api/me shows 100 OTP credits")
  }, 90_000)

  it("token create goes through the server's database port; the server accepts the new token", async () => {
    const result = await wasl(
      "token", "create", "--user", String(me.id), "--account", String(me.account.id), "--abilities", "deal-index"
    )
    const created = expectJsonLine(result)
    expect(created.token).toMatch(TOKEN)
    expect(stderrLines(result)).toEqual([usingServer()])
    expect((await getMe(created.token)).id).toBe(me.id)
  }, 90_000)

  it("plan set goes through the server's database port; the server sees the new plan", async () => {
    expect((await getMe()).account.plan).toBe("business")
    const result = await wasl("plan", "set", "--account", String(me.account.id), "--plan", "custom", "--webhook-limit", "3")
    expect(expectJsonLine(result)).toEqual({ account_id: me.account.id, plan: "custom", webhook_limit: 3, message_limit: 0 })
    expect(stderrLines(result)).toEqual([usingServer()])
    await eventually(async () => (await getMe()).account.plan === "custom", 3_000, "GET /api/me shows the custom plan")
  }, 90_000)

  it("after the server crashed, the CLI takes over its stale lock: the warning on stderr, the JSON line alone on stdout", async () => {
    server.child.kill("SIGKILL")
    await exitWithin(server, 10_000)
    const result = await wasl("credits", "add", "--account", String(me.account.id), "--amount", "1")
    expect(expectJsonLine(result)).toEqual({ account_id: me.account.id, otp_credits: 101 })
    const warnings = stderrLines(result)
    expect(warnings, result.stderr).toHaveLength(1)
    expect(warnings[0]).toContain(`Taking over the stale lock of ${Path.resolve(dir)} left by pid ${server.child.pid}`)
    expect(Fs.existsSync(lockFile())).toBe(false)
  }, 120_000)
})

describe("wasl CLI on a data directory held by a live process that serves no database port", () => {
  let dir = ""

  afterAll(() => {
    if (dir !== "") Fs.rmSync(dir, { recursive: true, force: true })
  })

  it("is refused as before, naming the holder (a server still starting)", async () => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-cli-held-"))
    // This test process stands for the holder: alive, on this machine, with no server in its lock.
    Fs.writeFileSync(
      Path.join(dir, "wasl.lock"),
      JSON.stringify({ pid: process.pid, hostname: Os.hostname(), token: "starting", createdAt: new Date().toISOString() }),
      { mode: 0o600 }
    )
    expect(expectFailure(await runToEnd("wasl migrate (held)", cliMain, ["migrate"], baseEnv(dir)))).toBe(
      `The embedded database at ${
        Path.resolve(dir)
      } is in use by another Wasl process (pid ${process.pid}). Stop it first or set DATABASE_URL.`
    )
  }, 60_000)
})

// -----------------------------------------------------------------------------
// without a database: the help and the settings
// -----------------------------------------------------------------------------

/** The sections of a help text: its header lines (DESCRIPTION, FLAGS, ...) to their entry lines. */
const helpSections = (text: string): Map<string, Array<string>> => {
  const sections = new Map<string, Array<string>>()
  let current: Array<string> | undefined
  for (const line of text.split("\n")) {
    if (/^[A-Z][A-Z ]+$/.test(line)) sections.set(line, current = [])
    else if (line.trim() !== "") current?.push(line)
  }
  return sections
}

/** An entry line's description: what follows the name (and type) after a run of spaces, less the choices and default. */
const entryDescription = (line: string) =>
  line.trim().split(/\s{2,}/).slice(1).join(" ").replace(/\((choices|default)[^)]*\)/g, "").trim()

describe("wasl --help", () => {
  afterAll(killAll, 30_000)

  it("describes every command, subcommand and flag", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env }
    delete env.DATABASE_URL
    const seen: Array<string> = []
    const visit = async (path: Array<string>): Promise<void> => {
      const result = await runToEnd(`wasl ${path.join(" ")} --help`, cliMain, [...path, "--help"], env)
      expect(result.code, show(result)).toBe(0)
      seen.push(path.join(" "))
      const sections = helpSections(result.stdout)
      expect(sections.get("DESCRIPTION")?.join(" ").trim(), `wasl ${path.join(" ")}: no description`).toBeTruthy()
      for (const line of sections.get("FLAGS") ?? []) {
        expect(entryDescription(line), `wasl ${path.join(" ")}: ${line.trim()}`).not.toBe("")
      }
      const subcommands = sections.get("SUBCOMMANDS") ?? []
      for (const line of subcommands) {
        expect(entryDescription(line), `wasl ${path.join(" ")}: ${line.trim()}`).not.toBe("")
      }
      await Promise.all(subcommands.map((line) => visit([...path, line.trim().split(/\s+/)[0]!])))
    }
    await visit([])
    // The walk reached every command of the README.
    expect(seen.sort()).toEqual(
      [
        "",
        "bootstrap",
        "config",
        "credits",
        "credits add",
        "member",
        "member invite",
        "member list",
        "member remove",
        "migrate",
        "plan",
        "plan set",
        "sandbox",
        "sandbox receive",
        "team",
        "team create",
        "team grant",
        "team list",
        "token",
        "token create"
      ]
    )
  }, 240_000)
})

describe("wasl config", () => {
  let dir = ""

  beforeAll(() => {
    dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "wasl-e2e-cli-config-"))
  })

  afterAll(async () => {
    await killAll()
    Fs.rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  const config = (env: Record<string, string>) => {
    const base = baseEnv(Path.join(dir, "data"))
    for (const name of Object.keys(base)) if (name.startsWith("WASL_") && name !== "WASL_DATA_DIR") delete base[name]
    return runToEnd("wasl config", cliMain, ["config"], { ...base, ...env })
  }

  it("prints every setting in effect, secrets redacted, without touching the data directory", async () => {
    const settings = expectJsonLine(
      await config({
        DATABASE_URL: "postgres://wasl:hunter2@db.example:5432/wasl",
        WASL_SECRET_KEY: "ab".repeat(32),
        WASL_SMTP_URL: "smtps://mailer:hunter2@mail.example:465",
        WASL_OTP_COOLDOWN: "2s"
      })
    )
    expect(settings.DATABASE_URL).toBe("postgres://wasl:***@db.example:5432/wasl")
    expect(settings.WASL_SMTP_URL).toBe("smtps://mailer:***@mail.example:465")
    expect(settings.WASL_SECRET_KEY).toBe("***")
    expect(settings.WASL_OTP_COOLDOWN).toBe("2s")
    expect(settings.PORT).toBe("3000")
    expect(settings.WASL_DELIVERY_TIMEOUT).toBe("30s")
    expect(JSON.stringify(settings)).not.toMatch(/hunter2|abab/)
    expect(Fs.existsSync(Path.join(dir, "data"))).toBe(false)
  }, 30_000)

  it("refuses a bad setting in one line naming it and the accepted form", async () => {
    expect(expectFailure(await config({ WASL_DELIVERY_TIMEOUT: "soon" }))).toBe(
      `WASL_DELIVERY_TIMEOUT: expected a duration such as 500ms, 2s, 5m, 1h, 1d or 60 seconds, received "soon"`
    )
  }, 30_000)
})
