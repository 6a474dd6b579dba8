/**
 * The shares of a CPU profile (`--cpu-prof`, e.g. through `BENCH_WASL_NODE_ARGS`): self time by
 * where the code lives (a package under node_modules, a Wasl package, Node's own modules, garbage
 * collection, idle), and the heaviest functions.
 * `npx node bench/profile-shares.ts <file.cpuprofile> [top] [--last <seconds>] [--callers <function>]`:
 * with `--last`, only the samples of the profile's last seconds, so start-up (module loading is
 * several per cent of a short run) and warm-up stay out of the shares of the measured load. With
 * `--callers`, also the time spent in that function and below it (by name, e.g. `flatten`), and the
 * chains of callers it was reached from. Code run by Effect's fibers is called from the runtime's
 * loop, not from the code that built it, so for it the chains end in the runtime.
 *
 * The profile samples the main thread's wall time: a sample taken while the thread is runnable
 * but another process holds the core is charged to the function it was preempted in. On a machine
 * the server shares with the database and the load generator, that inflates the system calls that
 * wake a neighbour (a statement's socket write wakes PostgreSQL); pin the server to a core of its
 * own to read CPU shares (bench/README.md, "How to profile").
 *
 * @module
 */
import * as Fs from "node:fs"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}
interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const args = process.argv.slice(2)
const lastAt = args.indexOf("--last")
const lastSeconds = lastAt === -1 ? undefined : Number(args.splice(lastAt, 2)[1])
const callersAt = args.indexOf("--callers")
const callersOf = callersAt === -1 ? undefined : args.splice(callersAt, 2)[1]
const [file, topArg] = args
if (file === undefined || (lastSeconds !== undefined && !(lastSeconds > 0)) || (callersAt !== -1 && !callersOf)) {
  throw new Error("usage: profile-shares.ts <file.cpuprofile> [top] [--last <seconds>] [--callers <function>]")
}
const profile = JSON.parse(Fs.readFileSync(file, "utf8")) as Profile
const nodes = new Map(profile.nodes.map((n) => [n.id, n]))

/** Where a frame's code lives. */
const placeOf = ({ functionName, url }: ProfileNode["callFrame"]): string => {
  if (functionName === "(idle)" || functionName === "(program)" || functionName === "(garbage collector)") return functionName
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (modules !== null) return modules[1]!
  const wasl = /\/(packages|apps)\/([^/]+)\//.exec(url)
  if (wasl !== null) return `wasl ${wasl[1]}/${wasl[2]}`
  if (url.startsWith("node:") || url === "") return "node (built-in)"
  return url
}

/** A frame as the tables name it: the function, and where it lives. */
const nameOf = (frame: ProfileNode["callFrame"]) =>
  `${frame.functionName || "(anonymous)"} ${
    frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(packages|apps)\//, "$1/")
  }:${frame.lineNumber + 1}`

const parentOf = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)

/** `--callers`: the samples under a frame of that function, by the chain of its four callers. */
const CALLER_DEPTH = 4
const byCallers = new Map<string, number>()
let underCallers = 0
const countCallers = (id: number, delta: number) => {
  let at: number | undefined = id
  while (at !== undefined && nodes.get(at)!.callFrame.functionName !== callersOf) at = parentOf.get(at)
  if (at === undefined) return
  underCallers += delta
  const chain: Array<string> = []
  for (let up = parentOf.get(at); up !== undefined && chain.length < CALLER_DEPTH; up = parentOf.get(up)) {
    chain.push(nameOf(nodes.get(up)!.callFrame))
  }
  const key = chain.join(" <- ")
  byCallers.set(key, (byCallers.get(key) ?? 0) + delta)
}

const byPlace = new Map<string, number>()
const byFunction = new Map<string, number>()
let total = 0
let idle = 0
// Each sample's time since the profile began, to keep only the last seconds when asked.
const sampledAt: Array<number> = []
let elapsed = 0
for (const delta of profile.timeDeltas) sampledAt.push((elapsed += delta))
const from = lastSeconds === undefined ? -Infinity : (sampledAt.at(-1) ?? 0) - lastSeconds * 1e6
profile.samples.forEach((id, i) => {
  if (sampledAt[i]! < from) return
  const delta = profile.timeDeltas[i] ?? 0
  const frame = nodes.get(id)!.callFrame
  const place = placeOf(frame)
  total += delta
  if (place === "(idle)") {
    idle += delta
    return
  }
  byPlace.set(place, (byPlace.get(place) ?? 0) + delta)
  const name = nameOf(frame)
  byFunction.set(name, (byFunction.get(name) ?? 0) + delta)
  if (callersOf !== undefined) countCallers(id, delta)
})
const busy = total - idle
const share = (micros: number) => `${((100 * micros) / busy).toFixed(1)} %`
console.log(`${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy; shares of the busy time:`)
for (const [place, micros] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
  console.log(`  ${share(micros).padStart(7)}  ${place}`)
}
console.log("heaviest functions (self time):")
for (const [name, micros] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25))) {
  console.log(`  ${share(micros).padStart(7)}  ${name}`)
}
if (callersOf !== undefined) {
  console.log(`${callersOf} and what it calls: ${share(underCallers)}, reached from:`)
  for (const [chain, micros] of [...byCallers].sort((a, b) => b[1] - a[1]).slice(0, 10)) {
    console.log(`  ${share(micros).padStart(7)}  ${chain}`)
  }
}
