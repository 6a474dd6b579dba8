/**
 * Authentication: principals, permissions and token abilities, API tokens, sessions, passwords,
 * two-factor (TOTP and recovery codes), rate limits, the sealed secrets.
 *
 * @module
 */
export * from "./auth/api-token.ts"
export * from "./auth/caller-check.ts"
export * from "./auth/password-hasher.ts"
export * from "./auth/permission.ts"
export * from "./auth/principal.ts"
export * from "./auth/rate-limiter.ts"
export * from "./auth/session-repository.ts"
export * from "./auth/token-hasher.ts"
export * from "./auth/token-repository.ts"
export * from "./auth/totp.ts"
export * from "./auth/two-factor-repository.ts"
export * from "./auth/two-factor-login-repository.ts"
export * from "./use-cases/authenticate.ts"
export * from "./use-cases/sessions.ts"
export * from "./use-cases/two-factor.ts"
export * from "./use-cases/two-factor-login.ts"
export * from "./auth/recovery-code.ts"
export * from "./use-cases/tokens.ts"
export * from "./auth/secret-box.ts"
export * from "./auth/hmac.ts"
export * from "./auth/server-key.ts"
