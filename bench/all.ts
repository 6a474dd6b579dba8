/**
 * `npm run bench`: every benchmark short enough to run in one go, one after another, each adding
 * its figures to `BENCH_JSON` when set; then how to run the long ones. The foundation and
 * idempotency benchmarks run on the embedded database unless `BENCH_DATABASE_URL` is set; the
 * writes, delivery and WhatsApp inbound benchmarks need PostgreSQL and run only with it.
 *
 * @module
 */
import { spawnSync } from "node:child_process"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const here = Path.dirname(fileURLToPath(import.meta.url))
const onPostgres = (process.env.BENCH_DATABASE_URL ?? "") !== ""

const short: ReadonlyArray<{ readonly script: string; readonly needsPostgres: boolean }> = [
  { script: "run.ts", needsPostgres: false },
  { script: "writes.ts", needsPostgres: true },
  { script: "deliveries.ts", needsPostgres: true },
  { script: "whatsapp-inbound.ts", needsPostgres: true },
  { script: "idempotency.ts", needsPostgres: false }
]

let failed = 0
for (const { needsPostgres, script } of short) {
  if (needsPostgres && !onPostgres) {
    console.error(`bench: skipping ${script} (needs BENCH_DATABASE_URL)`)
    continue
  }
  console.error(`bench: ${script}`)
  const { status } = spawnSync(process.execPath, [Path.join(here, script)], { stdio: "inherit" })
  if (status !== 0) failed++
}

console.log([
  "",
  "The long benchmarks, to run by hand (each takes BENCH_JSON too):",
  "  npx node bench/records.ts      lists over 1,000,000 deals (seeding ~4 min; BENCH_DEALS=20000 for a quick run)",
  "  npx node bench/prune.ts        retention of 1,000,000 delivery attempts",
  "  npx node bench/soak.ts         15 minutes of mixed load at 100 requests/s (5 of warm-up), apps/server's memory growth",
  "  npx node bench/campaigns.ts    a campaign of 100,000 recipients at 1,000/s through a fake Cloud API (PostgreSQL, ~3 min)"
].join("\n"))
process.exit(failed === 0 ? 0 : 1)
