/** `smtpServerOf`: what a `WASL_SMTP_URL` names, and why one cannot be used (never quoting it). */
import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { smtpServerOf } from "../../src/mail/smtp-url.ts"

describe("smtpServerOf", () => {
  it("reads host, port (465 with implicit TLS, 25 without), TLS and the URL-decoded account", () => {
    assert.deepStrictEqual(smtpServerOf("smtp://mail.example.test"), Result.succeed({
      host: "mail.example.test",
      port: 25,
      secure: false,
      auth: undefined
    }))
    assert.deepStrictEqual(smtpServerOf("smtps://crm%40example.test:p%3Ass%2Fw%C3%B6rd%20x@mail.example.test"), Result.succeed({
      host: "mail.example.test",
      port: 465,
      secure: true,
      auth: { user: "crm@example.test", pass: "p:ss/wörd x" }
    }))
    assert.deepStrictEqual(smtpServerOf("smtp://u:p@[::1]:2525"), Result.succeed({
      host: "::1",
      port: 2525,
      secure: false,
      auth: { user: "u", pass: "p" }
    }))
  })

  it("refuses what it cannot use, saying why without quoting the URL", () => {
    for (const [url, reason] of [
      ["https://u:hunter2@mail.example.test", "WASL_SMTP_URL: expected smtp://[user:pass@]host[:port] or smtps://..., received a https:// URL"],
      ["hunter2 at mail.example.test", "WASL_SMTP_URL: expected smtp://[user:pass@]host[:port] or smtps://..., received something that is not a URL"],
      ["smtp:hunter2", "WASL_SMTP_URL: the URL names no host"],
      ["smtp://u:hunter2%E0%A4%A@mail.example.test", "WASL_SMTP_URL: the user or password is not properly percent-encoded"]
    ] as const) {
      assert.deepStrictEqual(smtpServerOf(url), Result.fail(reason), url)
    }
  })
})
