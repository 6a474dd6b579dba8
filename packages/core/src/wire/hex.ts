/** Lowercase hexadecimal of the bytes, two digits each. */
export const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

/** The UTF-8 bytes of the text. */
export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
