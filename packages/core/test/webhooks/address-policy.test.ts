/** The SSRF address rule (address-policy.ts): no private, loopback or metadata hosts, by example and by property. */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { classifyAddress, isForbiddenAddress, isIpLiteral, parseIpAddress } from "../../src/Webhooks.ts"

const v4 = (bytes: ReadonlyArray<number>) => bytes.join(".")
const hex4 = (bytes: ReadonlyArray<number>) =>
  `${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`

/** Forbidden IPv4 blocks: [first bytes, prefix bits]. */
const FORBIDDEN_V4: ReadonlyArray<readonly [ReadonlyArray<number>, number]> = [
  [[0, 0, 0, 0], 8], [[10, 0, 0, 0], 8], [[100, 64, 0, 0], 10], [[127, 0, 0, 0], 8], [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12], [[192, 0, 0, 0], 24], [[192, 0, 2, 0], 24], [[192, 168, 0, 0], 16], [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24], [[203, 0, 113, 0], 24], [[224, 0, 0, 0], 4], [[240, 0, 0, 0], 4]
]

const inBlock = (addr: ReadonlyArray<number>, [prefix, bits]: readonly [ReadonlyArray<number>, number]) => {
  const n = (b: ReadonlyArray<number>) => ((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0
  return ((n(addr) & mask) >>> 0) === ((n(prefix) & mask) >>> 0)
}

const byte = fc.integer({ min: 0, max: 255 })
const anyV4 = fc.tuple(byte, byte, byte, byte)
const forbiddenV4 = fc.tuple(fc.constantFrom(...FORBIDDEN_V4), anyV4).map(([[prefix, bits], random]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0
  const n = (b: ReadonlyArray<number>) => ((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!
  const v = ((n(prefix) & mask) | (n(random) & ~mask)) >>> 0
  return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255]
})
const publicV4 = anyV4.filter((a) => !FORBIDDEN_V4.some((b) => inBlock(a, b)) && v4(a) !== "255.255.255.255")

describe("address policy", () => {
  it.each([
    ["127.0.0.1", "loopback"], ["10.1.2.3", "private"], ["172.31.255.255", "private"], ["192.168.1.1", "private"],
    ["169.254.169.254", "metadata"], ["169.254.1.1", "link-local"], ["100.64.0.1", "cgnat"], ["100.127.255.255", "cgnat"],
    ["0.0.0.0", "unspecified"], ["224.0.0.1", "multicast"], ["255.255.255.255", "broadcast"], ["240.0.0.1", "reserved"],
    ["::", "unspecified"], ["::1", "loopback"], ["fe80::1", "link-local"], ["fe80::1%eth0", "link-local"],
    ["fc00::1", "unique-local"], ["fd12:3456::1", "unique-local"], ["fd00:ec2::254", "metadata"], ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "ipv4-mapped"], ["::ffff:8.8.8.8", "ipv4-mapped"], ["::ffff:7f00:1", "ipv4-mapped"],
    ["64:ff9b::127.0.0.1", "loopback"], ["64:ff9b::a9fe:a9fe", "metadata"], ["2002:7f00:1::", "loopback"],
    ["2002:c0a8:101::1", "private"], ["2001:db8::1", "documentation"], ["2001::1", "reserved"], ["::127.0.0.1", "not-global"],
    ["not an ip", "invalid"], ["1.2.3", "invalid"], ["01.2.3.4", "invalid"], ["1:2:3:4:5:6:7:8:9", "invalid"]
  ])("%s is forbidden (%s)", (address, reason) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, reason })
  })

  it.each(["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "64:ff9b::808:808", "2002:808:808::1"])(
    "%s is allowed",
    (address) => {
      expect(classifyAddress(address)).toEqual({ allowed: true })
    }
  )

  it("refuses every address of the forbidden IPv4 blocks, in every wrapping form", () => {
    fc.assert(fc.property(forbiddenV4, (a) => {
      expect(isForbiddenAddress(v4(a))).toBe(true)
      expect(isForbiddenAddress(`::ffff:${v4(a)}`)).toBe(true)
      expect(isForbiddenAddress(`::ffff:${hex4(a)}`)).toBe(true)
      expect(isForbiddenAddress(`64:ff9b::${v4(a)}`)).toBe(true)
      expect(isForbiddenAddress(`64:ff9b::${hex4(a)}`)).toBe(true)
      expect(isForbiddenAddress(`2002:${hex4(a)}::1`)).toBe(true)
    }), { numRuns: 2000 })
  })

  it("allows public IPv4 addresses, bare and through NAT64/6to4; IPv4-mapped is always refused", () => {
    fc.assert(fc.property(publicV4, (a) => {
      expect(isForbiddenAddress(v4(a))).toBe(false)
      expect(isForbiddenAddress(`64:ff9b::${v4(a)}`)).toBe(false)
      expect(isForbiddenAddress(`2002:${hex4(a)}::1`)).toBe(false)
      expect(isForbiddenAddress(`::ffff:${v4(a)}`)).toBe(true)
    }), { numRuns: 2000 })
  })

  it("refuses every IPv6 address outside global unicast 2000::/3", () => {
    const group = fc.integer({ min: 0, max: 0xffff })
    fc.assert(fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (groups) => {
      const text = groups.map((g) => g.toString(16)).join(":")
      const first = groups[0]!
      const isNat64 = first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)
      if ((first & 0xe000) !== 0x2000 && !isNat64) expect(isForbiddenAddress(text)).toBe(true)
      // Parsing round-trips the bytes.
      expect(parseIpAddress(text)?.bytes).toEqual(groups.flatMap((g) => [g >> 8, g & 0xff]))
    }), { numRuns: 2000 })
  })

  it("recognises IP-literal URL hosts", () => {
    expect(isIpLiteral("127.0.0.1")).toBe(true)
    expect(isIpLiteral("[::1]")).toBe(true)
    expect(isIpLiteral("example.com")).toBe(false)
    expect(isIpLiteral("1.example.com")).toBe(false)
  })
})
