/**
 * 0052: companies linked to contacts, deals and tickets. `company_contacts`, `company_deals`,
 * `company_tickets` are laid out as the links of 0004: `(account_id, company_id, <other>_id)`
 * primary key, a reverse index, composite foreign keys carrying the account (no link across
 * accounts; deleting either record deletes its links). A company's `contacts_count`,
 * `deals_count` and `tickets_count` are counters kept by statement triggers on the link tables,
 * as a ticket's are, so lists filter and order on them through their own indexes.
 *
 * The new built-in names (a company's linked ids and counts, the `company_ids` of contacts, deals
 * and tickets, a ticket's `contact_ids` and `deal_ids` link filters) may already be an account's
 * custom property of that kind: such a property is renamed `<name>_<first 8 of its id>` (unique,
 * as its id is), keeping its values, which are held by id.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

const LINKS = [
  { table: "company_contacts", other: "contact_id", otherTable: "contacts", counter: "contacts_count" },
  { table: "company_deals", other: "deal_id", otherTable: "deals", counter: "deals_count" },
  { table: "company_tickets", other: "ticket_id", otherTable: "tickets", counter: "tickets_count" }
] as const

const TAKEN_NAMES = [
  ["company", ["contact_ids", "deal_ids", "ticket_ids", "contacts_count", "deals_count", "tickets_count"]],
  ["contact", ["company_ids"]],
  ["deal", ["company_ids"]],
  ["ticket", ["company_ids", "contact_ids", "deal_ids"]]
] as const

const migration: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const run = (statement: string) => sql.unsafe(statement).raw
  for (const [kind, names] of TAKEN_NAMES) {
    yield* run(`
      UPDATE properties SET internal_name = internal_name || '_' || left(id, 8)
      WHERE kind = '${kind}' AND internal_name IN (${names.map((n) => `'${n}'`).join(", ")})
    `)
  }
  for (const { counter } of LINKS) {
    yield* run(`ALTER TABLE companies ADD COLUMN ${counter} integer NOT NULL DEFAULT 0 CHECK (${counter} >= 0)`)
    yield* run(`CREATE INDEX companies_${counter} ON companies (account_id, ${counter}, id)`)
  }
  for (const { other, otherTable, table } of LINKS) {
    yield* run(`
      CREATE TABLE ${table} (
        account_id bigint NOT NULL,
        company_id text NOT NULL,
        ${other} text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, company_id, ${other}),
        FOREIGN KEY (account_id, company_id) REFERENCES companies (account_id, id) ON DELETE CASCADE,
        FOREIGN KEY (account_id, ${other}) REFERENCES ${otherTable} (account_id, id) ON DELETE CASCADE
      )
    `)
    yield* run(`CREATE INDEX ${table}_reverse ON ${table} (account_id, ${other}, company_id)`)
  }
  // TG_ARGV[0]: the counter. A company deleted with its links is no longer there to update.
  const delta = (sign: "+" | "-", rows: string) =>
    LINKS.map(({ counter }) =>
      `${counter} = c.${counter} ${sign} CASE WHEN TG_ARGV[0] = '${counter}' THEN d.n ELSE 0 END`
    ).join(", ") +
    ` FROM (SELECT account_id, company_id, count(*)::integer AS n FROM ${rows} GROUP BY 1, 2) d
      WHERE c.account_id = d.account_id AND c.id = d.company_id`
  yield* run(`
    CREATE FUNCTION company_link_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE companies c SET ${delta("+", "new_rows")};
      ELSE
        UPDATE companies c SET ${delta("-", "old_rows")};
      END IF;
      RETURN NULL;
    END
    $$
  `)
  for (const { counter, table } of LINKS) {
    yield* run(`
      CREATE TRIGGER ${table}_counted_insert AFTER INSERT ON ${table}
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION company_link_counts('${counter}')
    `)
    yield* run(`
      CREATE TRIGGER ${table}_counted_delete AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION company_link_counts('${counter}')
    `)
  }
})

export default migration
