/**
 * Managed one-time passwords: codes, verifications, reservations and credits, the OTP sends.
 *
 * @module
 */
export * from "./messaging/otp-ledger.ts"
export * from "./messaging/otp-reservation-repository.ts"
export * from "./messaging/verification-repository.ts"
export * from "./messaging/otp-code.ts"
export * from "./messaging/otp-verification.ts"
export * from "./messaging/otp-reservation.ts"
export * from "./use-cases/send-otp.ts"
export * from "./use-cases/otp-reservation-sweep.ts"
export * from "./use-cases/verifications.ts"
