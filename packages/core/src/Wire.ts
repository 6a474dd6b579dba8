/**
 * Wire forms shared with the HTTP side: record ids, timestamps, civil times, CSV formula guards,
 * validation messages and text rules.
 *
 * @module
 */
export * from "./wire/civil-time.ts"
export * from "./wire/formula-guard.ts"
export * from "./wire/own-key.ts"
export * from "./wire/random-string.ts"
export * from "./wire/record-id.ts"
export * from "./wire/timestamp.ts"
export * from "./validation/laravel-trim.ts"
export * from "./validation/settings-values.ts"
export * from "./validation/validation-messages.ts"
export * from "./validation/storable-text.ts"
export * from "./validation/more-validation-messages.ts"
