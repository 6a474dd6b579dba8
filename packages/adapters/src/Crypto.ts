/**
 * Node's cryptography for the ports: scrypt password hashing, token hashing, HMAC, a pooled secure
 * random source.
 *
 * @module
 */
export * from "./password-hasher-scrypt.ts"
export * from "./token-hasher-node.ts"
export * from "./mac-node.ts"
export * from "./secure-random-pooled.ts"
