/**
 * Which network addresses a webhook may reach: the rule against server-side request forgery, pure so that the
 * create/update check (WebhookUrlGuard) and the connection-time check of the address actually
 * dialled (WebhookTransportHttp's lookup) share one definition.
 *
 * IPv4: everything is reachable except the special-purpose blocks below. IPv6: only global
 * unicast (2000::/3) is reachable, minus its special blocks; forms that carry an IPv4 address
 * (IPv4-mapped ::ffff:0:0/96 and IPv4-compatible ::/96 are refused outright; NAT64 64:ff9b::/96
 * and 6to4 2002::/16 are judged by the IPv4 address they wrap). Text that is not an address
 * is refused (fail closed).
 *
 * @module
 */

/** Whether a webhook may connect to an address, and if not, why. */
export type AddressVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: ForbiddenReason }

/**
 * Why an address is refused: not an address (`invalid`), or the special-purpose block it lies in
 * (`loopback`, `private`, `metadata` for cloud metadata services, `cgnat`, ...); `not-global` is
 * an IPv6 address outside global unicast.
 */
export type ForbiddenReason =
  | "invalid"
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "metadata"
  | "cgnat"
  | "unique-local"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "documentation"
  | "ipv4-mapped"
  | "not-global"

/** An IP address as bytes: 4 for IPv4, 16 for IPv6. */
export type ParsedAddress =
  | { readonly version: 4; readonly bytes: ReadonlyArray<number> }
  | { readonly version: 6; readonly bytes: ReadonlyArray<number> }

const OK: AddressVerdict = { allowed: true }
const refuse = (reason: ForbiddenReason): AddressVerdict => ({ allowed: false, reason })

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/** Dotted quad, four decimal octets without leading zeros (so `010.0.0.1` is not guessed at). */
const parseIpv4 = (text: string): ReadonlyArray<number> | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  const bytes: Array<number> = []
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined
    const n = Number(part)
    if (n > 255) return undefined
    bytes.push(n)
  }
  return bytes
}

/** RFC 4291 text: `::` once at most, an optional dotted-quad tail, an optional `%zone`. */
const parseIpv6 = (input: string): ReadonlyArray<number> | undefined => {
  const text = input.includes("%") ? input.slice(0, input.indexOf("%")) : input
  if (text.length === 0 || text.length > 45) return undefined
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const groupsOf = (part: string): Array<number> | undefined => {
    if (part === "") return []
    const out: Array<number> = []
    const pieces = part.split(":")
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIpv4(piece)
        if (v4 === undefined) return undefined
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined
        out.push(parseInt(piece, 16))
      }
    }
    return out
  }
  const head = groupsOf(halves[0]!)
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : []
  if (head === undefined || tail === undefined) return undefined
  // A dotted-quad tail may only end the address.
  if (halves.length === 2 && halves[0]!.includes(".")) return undefined
  let groups: Array<number>
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length
    if (missing < 1) return undefined
    groups = [...head, ...Array<number>(missing).fill(0), ...tail]
  } else {
    if (head.length !== 8) return undefined
    groups = head
  }
  return groups.flatMap((g) => [g >> 8, g & 0xff])
}

/** An IPv4 or IPv6 address in text form (IPv6 may be bracketed, as in a URL host); else undefined. */
export const parseIpAddress = (text: string): ParsedAddress | undefined => {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text
  const v4 = parseIpv4(bare)
  if (v4 !== undefined) return { version: 4, bytes: v4 }
  if (!bare.includes(":")) return undefined
  const v6 = parseIpv6(bare)
  return v6 === undefined ? undefined : { version: 6, bytes: v6 }
}

/**
 * Whether a URL host is written as an IP address. WHATWG URL parsing already turns the odd
 * IPv4 forms (`0x7f.1`, `2130706433`) into dotted quads, and brackets IPv6.
 */
export const isIpLiteral = (host: string): boolean => parseIpAddress(host) !== undefined

// ---------------------------------------------------------------------------------------------
// Classification
// ---------------------------------------------------------------------------------------------

interface Block {
  readonly prefix: ReadonlyArray<number>
  readonly bits: number
  readonly reason: ForbiddenReason
}

const block = (text: string, bits: number, reason: ForbiddenReason): Block => ({
  prefix: parseIpAddress(text)!.bytes,
  bits,
  reason
})

const inBlock = (bytes: ReadonlyArray<number>, b: Block): boolean => {
  for (let bit = 0; bit < b.bits; bit++) {
    const i = bit >> 3
    const mask = 0x80 >> (bit & 7)
    if ((bytes[i]! & mask) !== (b.prefix[i]! & mask)) return false
  }
  return true
}

/** Specific blocks first: the first match names the reason. */
const IPV4_BLOCKS: ReadonlyArray<Block> = [
  block("169.254.169.254", 32, "metadata"),
  block("255.255.255.255", 32, "broadcast"),
  block("0.0.0.0", 8, "unspecified"),
  block("10.0.0.0", 8, "private"),
  block("100.64.0.0", 10, "cgnat"),
  block("127.0.0.0", 8, "loopback"),
  block("169.254.0.0", 16, "link-local"),
  block("172.16.0.0", 12, "private"),
  block("192.0.0.0", 24, "reserved"),
  block("192.0.2.0", 24, "documentation"),
  block("192.88.99.0", 24, "reserved"),
  block("192.168.0.0", 16, "private"),
  block("198.18.0.0", 15, "reserved"),
  block("198.51.100.0", 24, "documentation"),
  block("203.0.113.0", 24, "documentation"),
  block("224.0.0.0", 4, "multicast"),
  block("240.0.0.0", 4, "reserved")
]

const IPV6_BLOCKS: ReadonlyArray<Block> = [
  block("fd00:ec2::254", 128, "metadata"),
  block("::", 128, "unspecified"),
  block("::1", 128, "loopback"),
  block("::ffff:0:0", 96, "ipv4-mapped"),
  block("fc00::", 7, "unique-local"),
  block("fe80::", 10, "link-local"),
  block("fec0::", 10, "link-local"),
  block("ff00::", 8, "multicast"),
  // IETF protocol assignments: Teredo (whose client address is obfuscated), ORCHID, benchmarking.
  block("2001::", 23, "reserved"),
  block("2001:db8::", 32, "documentation"),
  block("3fff::", 20, "documentation")
]

const NAT64 = block("64:ff9b::", 96, "reserved")
const SIX_TO_FOUR = block("2002::", 16, "reserved")
const GLOBAL_UNICAST = block("2000::", 3, "not-global")

const classifyIpv4 = (bytes: ReadonlyArray<number>): AddressVerdict => {
  const hit = IPV4_BLOCKS.find((b) => inBlock(bytes, b))
  return hit === undefined ? OK : refuse(hit.reason)
}

const classifyIpv6 = (bytes: ReadonlyArray<number>): AddressVerdict => {
  const hit = IPV6_BLOCKS.find((b) => inBlock(bytes, b))
  if (hit !== undefined) return refuse(hit.reason)
  // Translation forms reach the IPv4 address they carry: judge that address.
  if (inBlock(bytes, NAT64)) return classifyIpv4(bytes.slice(12, 16))
  if (inBlock(bytes, SIX_TO_FOUR)) return classifyIpv4(bytes.slice(2, 6))
  return inBlock(bytes, GLOBAL_UNICAST) ? OK : refuse("not-global")
}

/** The verdict on an address in text form. */
export const classifyAddress = (text: string): AddressVerdict => {
  const parsed = parseIpAddress(text)
  if (parsed === undefined) return refuse("invalid")
  return parsed.version === 4 ? classifyIpv4(parsed.bytes) : classifyIpv6(parsed.bytes)
}

/** True when a webhook may not connect to this address. */
export const isForbiddenAddress = (text: string): boolean => !classifyAddress(text).allowed
