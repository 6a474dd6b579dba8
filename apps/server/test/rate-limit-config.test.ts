/** The rate-limit settings: their defaults, their syntax, 0 for none, and a clear refusal of nonsense. */
import { type Config, ConfigProvider, Duration, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { describeConfigError, RateLimitConfig, TrustProxyConfig } from "../src/config.ts"

const read = (env: Record<string, string>) => Effect.runSyncExit(RateLimitConfig.parse(ConfigProvider.fromEnvRecord(env)))

/** The one line that refuses `env`. */
const refusal = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  describeConfigError(Effect.runSync(Effect.flip(config.parse(ConfigProvider.fromEnvRecord(env)))))

describe("rate-limit configuration", () => {
  it("defaults to 600 a minute per caller, 10 a minute per login email and address, 120 a minute of OTP verifications", () => {
    expect(read({})).toEqual(Exit.succeed({
      caller: { limit: 600, window: Duration.minutes(1) },
      login: { limit: 10, window: Duration.minutes(1) },
      otpVerify: { limit: 120, window: Duration.minutes(1) }
    }))
  })

  it("reads <requests>/<duration>, <requests> per minute, and 0 for no limit", () => {
    expect(read({ WASL_RATE_LIMIT: "0", WASL_RATE_LIMIT_LOGIN: "5/15 minutes", WASL_RATE_LIMIT_OTP_VERIFY: "30" })).toEqual(
      Exit.succeed({
        caller: { limit: 0, window: Duration.minutes(1) },
        login: { limit: 5, window: Duration.minutes(15) },
        otpVerify: { limit: 30, window: Duration.minutes(1) }
      })
    )
  })

  it("refuses a setting that does not parse, naming it", () => {
    expect(refusal(RateLimitConfig, { WASL_RATE_LIMIT_LOGIN: "ten per minute" })).toMatch(
      /^WASL_RATE_LIMIT_LOGIN: expected <requests>\/<duration> .*, received "ten per minute"$/
    )
  })

  it("trusts no proxy by default; reads addresses and networks; refuses anything else, naming it", () => {
    const proxies = (env: Record<string, string>) =>
      Effect.runSyncExit(TrustProxyConfig.parse(ConfigProvider.fromEnvRecord(env)))
    expect(proxies({})).toEqual(Exit.succeed([]))
    const read = proxies({ WASL_TRUST_PROXY: "127.0.0.1, 10.0.0.0/8,fd00::/8" })
    expect(Exit.isSuccess(read) && read.value.length).toBe(3)
    expect(refusal(TrustProxyConfig, { WASL_TRUST_PROXY: "10.0.0.0/8,proxy.local" })).toMatch(
      /^WASL_TRUST_PROXY: "proxy.local" is neither an IP address nor a network/
    )
  })
})
