/**
 * Base32 (RFC 4648, the `A–Z2–7` alphabet), the form authenticator apps take a TOTP secret in.
 * effect/encoding has Base64 and Hex but no Base32.
 */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** The bytes in Base32, upper case, without `=` padding (as `otpauth://` URIs carry them). */
export const encodeBase32 = (bytes: Uint8Array): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31]
  return out
}

/**
 * The bytes of a Base32 text, read without regard to case, spaces or trailing `=`; undefined
 * when it holds a character outside the alphabet.
 */
export const decodeBase32 = (text: string): Uint8Array | undefined => {
  const clean = text.replace(/[\s=]/g, "").toUpperCase()
  const out: Array<number> = []
  let buffer = 0
  let bits = 0
  for (const char of clean) {
    const value = ALPHABET.indexOf(char)
    if (value < 0) return undefined
    buffer = ((buffer << 5) | value) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}
